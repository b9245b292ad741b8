#include "common/json_text.h"

#include <algorithm>

namespace icnsim {

namespace {

bool isFlat(const nlohmann::json& array) {
  return std::none_of(array.begin(), array.end(),
                      [](const nlohmann::json& e) { return e.is_structured(); });
}

void write(const nlohmann::json& v, int depth, std::string& out) {
  const bool structured = v.is_object() || (v.is_array() && !isFlat(v));
  if (!structured || v.empty()) {
    out += v.dump();  // compact: scalars, flat arrays, {} and []
    return;
  }
  const std::string inner(2 * (depth + 1), ' ');
  out += v.is_object() ? "{\n" : "[\n";
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    out += first ? "" : ",\n";
    first = false;
    out += inner;
    if (v.is_object()) out += nlohmann::json(it.key()).dump() + ": ";
    write(*it, depth + 1, out);
  }
  out += "\n" + std::string(2 * depth, ' ') + (v.is_object() ? "}" : "]");
}

}  // namespace

std::string jsonText(const nlohmann::json& value) {
  std::string out;
  write(value, 0, out);
  return out + "\n";
}

}  // namespace icnsim
