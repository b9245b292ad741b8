// The nearest of a list of names to a word that is not among them, for the suggestions
// errors make ("did you mean ...?"): keys, parts, commands.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace icnsim {

// Edit distance (insertions, deletions and substitutions of one character each).
size_t editDistance(const std::string& a, const std::string& b);
// The candidate `word` begins (the shortest), or else the nearest by edit distance (the
// first of equals; "" if none).
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace icnsim
