// A RankExchange that passes every exchange on to another and counts what passed: the
// bytes this rank received from the others, and how long the exchanges took. `bench`
// reports them per cycle; the bytes are what the ranks' scaling model predicts
// (docs/performance/scaling/scaling.md).
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
  void allToAll(const std::vector<std::vector<std::byte>>& toEach, std::vector<std::byte>& fromAll,
                std::vector<size_t>& offsets) const override {
    const auto start = std::chrono::steady_clock::now();
    inner_.allToAll(toEach, fromAll, offsets);
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bytesReceived_ += fromAll.size() - (offsets[rank() + 1] - offsets[rank()]);  // not its own part
    ++exchanges_;
  }
  uint64_t bytesReceived() const { return bytesReceived_; }  // from the other ranks
  uint64_t exchanges() const { return exchanges_; }
  double seconds() const { return seconds_; }  // in the exchanges, waiting for the slowest rank included

 private:
  const RankExchange& inner_;
  // allToAll is const (the exchange is not the network's state): counted through mutable.
  mutable uint64_t bytesReceived_ = 0, exchanges_ = 0;
  mutable double seconds_ = 0;
};

}  // namespace icnsim
