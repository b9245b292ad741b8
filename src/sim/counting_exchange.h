// A RankExchange that passes every call on to another and counts what passed: how many
// exchanges, how many bytes this rank received in them from the others and how long they took. `bench` reports it per cycle,
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
    counted(all, offsets, [&] { inner_.allGather(mine, all, offsets); });
  }
  void allToAll(const std::vector<std::vector<std::byte>>& toEach, std::vector<std::byte>& fromAll,
                std::vector<size_t>& offsets) const override {
    counted(fromAll, offsets, [&] { inner_.allToAll(toEach, fromAll, offsets); });
  }
  uint64_t exchanges() const { return exchanges_; }
  uint64_t bytesReceived() const { return bytesReceived_; }  // from the other ranks
  double seconds() const { return seconds_; }  // in the exchanges, waiting for the slowest rank included

 private:
  template <typename Call>
  void counted(const std::vector<std::byte>& received, const std::vector<size_t>& offsets, Call&& call) const {
    const auto start = std::chrono::steady_clock::now();
    call();
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++exchanges_;
    bytesReceived_ += received.size() - (offsets[rank() + 1] - offsets[rank()]);  // not its own part
  }

  const RankExchange& inner_;
  // allGather is const (the exchange is not the network's state): counted through mutable.
  mutable uint64_t exchanges_ = 0, bytesReceived_ = 0;
  mutable double seconds_ = 0;
};

}  // namespace icnsim
