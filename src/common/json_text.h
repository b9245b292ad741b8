// The text form of every JSON file icnsim writes (results, manifests, analytic output):
// objects indented two spaces per level, one key per line, and arrays whose elements are
// all numbers, strings, booleans or null on one line. A latency histogram then costs a few
// bytes per bin instead of a line per bin, and a result stays readable.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace icnsim {

// `value` as text, ending in a newline.
std::string jsonText(const nlohmann::json& value);

}  // namespace icnsim
