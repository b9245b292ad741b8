// One line of a text input file (a graph file, a GOAL schedule) as words read in order, each
// with what it should be, so that a malformed line throws a ConfigError naming the file, the
// line and what was expected there.
#pragma once
#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <istream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"

namespace icnsim {

// Text quoted from an input file, made safe to print: bytes outside printable ASCII become
// \xNN (a binary file's bytes would otherwise reach the terminal raw), and text beyond
// `maxBytes` is cut with "...".
inline std::string printableText(const std::string& text, size_t maxBytes = 400) {
  std::string out;
  for (size_t i = 0; i < text.size() && out.size() < maxBytes; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    out += c >= 0x20 && c < 0x7f ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02x}", c);
  }
  return out.size() >= maxBytes ? out + "..." : out;
}

class TextLine {
 public:
  // `where`: how errors name the line, e.g. "topology.file (net.graph:12)".
  TextLine(std::vector<std::string> words, std::string where) : words_(std::move(words)), where_(std::move(where)) {}
  bool done() const { return next_ >= words_.size(); }
  // The next word without taking it ("" at the end).
  const std::string& peek() const {
    static const std::string kNone;
    return done() ? kNone : words_[next_];
  }
  const std::string& word(const char* what) {
    if (done()) fail(fmt::format("expected {}", what));
    return words_[next_++];
  }
  template <typename Int = int>
  Int integer(const char* what, Int min, Int max) {
    const std::string& w = word(what);
    Int v = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size() || v < min || v > max) {
      fail(fmt::format("expected {} (an integer in [{}, {}]), got '{}'", what, min, max, w));
    }
    return v;
  }
  double number(const char* what, double min, double max) {
    const std::string& w = word(what);
    double v = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size() || !(v >= min && v <= max)) {
      fail(fmt::format("expected {} (a number from {:g} to {:g}), got '{}'", what, min, max, w));
    }
    return v;
  }
  // The message quotes the line's words: printed safely whatever bytes they hold.
  [[noreturn]] void fail(const std::string& message) const {
    throw ConfigError(where_ + ": " + printableText(message));
  }
  const std::string& where() const { return where_; }

 private:
  std::vector<std::string> words_;
  size_t next_ = 0;
  std::string where_;
};

// Calls lineRead(line) for each line of `in` that holds words (the text after '#' left out),
// the line named "name (path:N)" in its errors; `lineRead` returns false to stop reading.
template <typename LineRead>
void forEachTextLine(std::istream& in, const std::string& path, const std::string& name, LineRead&& lineRead) {
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (const size_t hash = text.find('#'); hash != std::string::npos) text.resize(hash);
    std::istringstream split(text);
    std::vector<std::string> words;
    for (std::string w; split >> w;) words.push_back(w);
    if (words.empty()) continue;
    TextLine wordsOfLine(std::move(words), fmt::format("{} ({}:{})", name, path, number));
    if (!lineRead(wordsOfLine)) return;
  }
}

}  // namespace icnsim
