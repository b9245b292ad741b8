// An estimate of the memory a simulation will need, checked piece by piece before each
// large structure is built, so a configuration too big for the machine is refused at once
// with the estimate (instead of validating for minutes or being killed half-way). The
// per-item costs are measured (docs/reliability.md); the estimate is meant to be within a
// factor of two, not exact.
//
// Key ([simulation]): memory_limit_gb (default 0: the memory this machine has available
// when the run starts).
#pragma once
#include <cstdint>
#include <string>

namespace icnsim {

class ConfigNode;

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t limitBytes) : limit_(limitBytes) {}
  // MemAvailable from /proc/meminfo (physical memory if that cannot be read).
  static uint64_t machineAvailable();
  // Adds `bytes` needed for `what`; if the total passes the limit, throws ResourceError at
  // `node`.`key` (the setting that makes it big) with the estimate.
  void reserve(uint64_t bytes, const std::string& what, const ConfigNode& node, const std::string& key);
  uint64_t reserved() const { return reserved_; }
  // What the limit leaves beside the estimate so far (the most a uint64_t holds: no limit).
  uint64_t left() const {
    if (limit_ == 0) return UINT64_MAX;
    return limit_ > reserved_ ? limit_ - reserved_ : 0;
  }

 private:
  uint64_t limit_;
  uint64_t reserved_ = 0;
  std::string parts_;  // "topology 1.2 GB, router buffers 3.4 GB"
};

}  // namespace icnsim
