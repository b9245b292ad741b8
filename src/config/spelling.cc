#include "config/spelling.h"

#include <algorithm>
#include <cstdint>

namespace icnsim {

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  // A word that begins a candidate is most likely short for it ("warmup": warmup_cycles),
  // however far apart their spellings are: the shortest such candidate.
  std::string completion;
  for (const auto& c : candidates) {
    if (word.size() >= 4 && c.size() > word.size() && c.compare(0, word.size(), word) == 0 &&
        (completion.empty() || c.size() < completion.size())) {
      completion = c;
    }
  }
  if (!completion.empty()) return completion;
  std::string best;
  size_t bestDistance = SIZE_MAX;
  for (const auto& c : candidates) {
    size_t d = editDistance(word, c);
    if (d < bestDistance) bestDistance = d, best = c;
  }
  return best;
}

}  // namespace icnsim
