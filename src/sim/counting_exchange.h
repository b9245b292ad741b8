// A RankExchange that passes every call on to another and counts what passed: how many
// exchanges, how many bytes every rank received in them and how long they took. `bench` reports it per cycle,
// the quantity the ranks' scaling model predicts (docs/design/parallel.md).
#pragma once
#include <chrono>
#include <cstdint>

#include "kernel/rank_exchange.h"

namespace icnsim {

class CountingExchange : public RankExchange {
 public:
  explicit CountingExchange(const RankExchange& inner) : inner_(inner) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  void allGather(const std::vector<std::byte>& mine, std::vector<std::byte>& all,
                 std::vector<size_t>& offsets) const override {
    const auto start = std::chrono::steady_clock::now();
    inner_.allGather(mine, all, offsets);
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++exchanges_;
    bytesGathered_ += all.size();
  }
  uint64_t exchanges() const { return exchanges_; }
  uint64_t bytesGathered() const { return bytesGathered_; }  // all ranks' bytes, as each rank receives them
  double seconds() const { return seconds_; }  // in the exchanges, waiting for the slowest rank included

 private:
  const RankExchange& inner_;
  // allGather is const (the exchange is not the network's state): counted through mutable.
  mutable uint64_t exchanges_ = 0, bytesGathered_ = 0;
  mutable double seconds_ = 0;
};

}  // namespace icnsim
