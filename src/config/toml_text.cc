#include <fmt/format.h>

#include <sstream>

#include "common/error.h"
#include "config/toml.h"

namespace icnsim {

namespace {

// A scanner that knows only where strings and comments begin and end.
class TomlTextScanner {
 public:
  TomlTextScanner(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  void run() {
    while (i_ < text_.size()) {
      if ((at('"') || at('\'')) && !stringMayStart()) advance();  // part of a bare token, for toml++ too
      else if (startsWith("\"\"\"")) multiLineString("\"\"\"", true);
      else if (startsWith("'''")) multiLineString("'''", false);
      else if (at('"')) lineString('"', true);
      else if (at('\'')) lineString('\'', false);
      else if (at('#')) skipTo('\n');
      else if (static_cast<unsigned char>(text_[i_]) >= 0x80) fail("a non-ASCII character outside a string or comment");
      else advance();
    }
  }

 private:
  bool at(char c) const { return i_ < text_.size() && text_[i_] == c; }
  // A quote opens a string only where a key or value may begin: at the start of a line or
  // after = [ , { or . (spaces between). Elsewhere (`0"""`, found by the fuzzer) toml++
  // reads it as part of a bare token and goes on testing the characters after it.
  bool stringMayStart() const {
    size_t j = i_;
    while (j > 0 && (text_[j - 1] == ' ' || text_[j - 1] == '\t')) --j;
    return j == 0 || std::string_view("=[,{.\n\r").find(text_[j - 1]) != std::string_view::npos;
  }
  bool startsWith(std::string_view s) const { return text_.substr(i_, s.size()) == s; }
  void advance() {
    if (text_[i_++] == '\n') ++line_, lineStart_ = i_;
  }
  void skipTo(char end) {
    while (i_ < text_.size() && !at(end)) advance();
  }
  void lineString(char quote, bool escapes) {
    advance();
    while (i_ < text_.size() && !at(quote) && !at('\n')) {
      if (escapes && at('\\') && i_ + 1 < text_.size()) advance();
      advance();
    }
    if (at(quote)) advance();
  }
  void multiLineString(std::string_view delimiter, bool escapes) {
    i_ += delimiter.size();
    while (i_ < text_.size() && !startsWith(delimiter)) {
      if (escapes && at('\\')) {
        advance();
        const size_t before = i_;
        while (i_ < text_.size() && (at(' ') || at('\t') || at('\r') || at('\n'))) advance();
        if (i_ > before && i_ < text_.size() && static_cast<unsigned char>(text_[i_]) >= 0x80) {
          fail("a non-ASCII character right after a line-ending backslash (put it on the line before)");
        }
        if (i_ == before && i_ < text_.size()) advance();
        continue;
      }
      advance();
    }
    i_ = std::min(text_.size(), i_ + delimiter.size());
    while (at(delimiter[0])) advance();  // up to two quotes may end the string's content
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw ConfigError(fmt::format("{}:{}:{}: TOML syntax error: {}", name_, line_, i_ - lineStart_ + 1, what));
  }

  std::string_view text_, name_;
  size_t i_ = 0, line_ = 1, lineStart_ = 0;
};

}  // namespace

void checkTomlText(std::string_view text, std::string_view name) { TomlTextScanner(text, name).run(); }

std::string tomlTypeName(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    default:
      return "a date/time";
  }
}

namespace {

// A TOML basic string: quotes, backslashes and control characters escaped.
std::string tomlQuoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\u{:04X}", c);
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

// The shortest text that reads back as the same double, always with a '.' or an exponent
// so that TOML reads it as a float again (2.0, not 2).
std::string tomlFloatText(double v) {
  std::string text = fmt::format("{}", v);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // "inf" and "nan" have an n
  return text;
}

std::string keyText(const std::string& key) {
  const bool bare =
      !key.empty() &&
      key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
  return bare ? key : tomlQuoted(key);
}

}  // namespace

std::string tomlValueText(const toml::node& n) {
  std::ostringstream s;
  if (auto v = n.as_string()) s << tomlQuoted(v->get());
  else if (auto i = n.as_integer()) s << i->get();
  else if (auto f = n.as_floating_point()) s << tomlFloatText(f->get());
  else if (auto b = n.as_boolean()) s << (b->get() ? "true" : "false");
  else if (auto d = n.as_date()) s << *d;
  else if (auto t = n.as_time()) s << *t;
  else if (auto dt = n.as_date_time()) s << *dt;
  else if (auto* arr = n.as_array()) {
    s << "[";
    for (size_t i = 0; i < arr->size(); ++i) s << (i ? ", " : "") << tomlValueText(*arr->get(i));
    s << "]";
  } else if (auto* table = n.as_table()) {
    s << "{";
    bool first = true;
    for (const auto& [k, v] : *table)
      s << (first ? " " : ", ") << keyText(std::string(k.str())) << " = " << tomlValueText(v), first = false;
    s << (first ? "}" : " }");
  }
  return s.str();
}

}  // namespace icnsim
