#include "parts/memory_budget.h"

#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "common/error.h"
#include "config/config.h"

namespace icnsim {

namespace {
std::string gigabytes(uint64_t bytes) { return fmt::format("{:.3g} GB", bytes / 1e9); }
}  // namespace

uint64_t MemoryBudget::machineAvailable() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream fields(line);
    std::string name;
    uint64_t kilobytes = 0;
    if (fields >> name >> kilobytes && name == "MemAvailable:") return kilobytes * 1024;
  }
  return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

void MemoryBudget::reserve(uint64_t bytes, const std::string& what, const ConfigNode& node, const std::string& key) {
  reserved_ += bytes;
  parts_ += fmt::format("{}{} {}", parts_.empty() ? "" : ", ", what, gigabytes(bytes));
  if (limit_ == 0 || reserved_ <= limit_) return;
  throw ResourceError(
      fmt::format("{}: this configuration needs an estimated {} ({}), more than the {} allowed "
                  "(simulation.memory_limit_gb; default: what the machine has available)",
                  node.location(key), gigabytes(reserved_), parts_, gigabytes(limit_)));
}

}  // namespace icnsim
