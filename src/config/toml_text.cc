#include <fmt/format.h>

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

}  // namespace icnsim
