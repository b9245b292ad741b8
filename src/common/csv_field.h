// One field of a CSV file (RFC 4180), as the sweep's results and the bench's table write it.
#pragma once
#include <string>

namespace icnsim {

// `text` as a CSV field: quoted when it holds a comma, a quote or a line break, with quotes
// doubled; otherwise as it is.
std::string csvField(const std::string& text);

}  // namespace icnsim
