// One line of a text input file (a graph file, a GOAL schedule) as words read in order, each
// with what it should be, so that a malformed line throws a ConfigError naming the file, the
// line and what was expected there.
#pragma once
#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"

namespace icnsim {

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
  [[noreturn]] void fail(const std::string& message) const { throw ConfigError(where_ + ": " + message); }
  const std::string& where() const { return where_; }

 private:
  std::vector<std::string> words_;
  size_t next_ = 0;
  std::string where_;
};

}  // namespace icnsim
