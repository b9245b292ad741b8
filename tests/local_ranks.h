// Ranks that are threads of the test process: a RankExchange for each of `size` ranks that
// meet at a barrier, so a network split over ranks runs in a unit test (and under the
// sanitizers) without mpirun.
#pragma once
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "kernel/rank_exchange.h"

namespace icnsim::test {

// A barrier that waits by yielding the core. The ranks meet twice per exchange, several times
// a cycle, often with more ranks than cores: std::barrier's sleeps in the kernel made that
// wait cost ten times the simulation (30 s of a test whose runs take 3 s on one rank).
class YieldingBarrier {
 public:
  explicit YieldingBarrier(int members) : members_(members) {}
  void arriveAndWait() {
    const unsigned generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == members_) {
      arrived_.store(0, std::memory_order_relaxed);  // before the release below: the next round starts at 0
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    while (generation_.load(std::memory_order_acquire) == generation) std::this_thread::yield();
  }

 private:
  const int members_;
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
};

class LocalRanks {
 public:
  explicit LocalRanks(int size) : sync_(size), postedToEach_(size, nullptr) {
    for (int r = 0; r < size; ++r) members_.emplace_back(*this, r);
  }
  const RankExchange& rank(int r) const { return members_[r]; }

 private:
  class Member : public RankExchange {
   public:
    Member(LocalRanks& group, int rank) : group_(group), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return static_cast<int>(group_.members_.size()); }
    void allToAll(const std::vector<std::vector<std::byte>>& toEach, std::vector<std::byte>& fromAll,
                  std::vector<size_t>& offsets) const override {
      group_.postedToEach_[rank_] = &toEach;
      group_.sync_.arriveAndWait();  // every rank has posted
      offsets.assign(1, 0);
      fromAll.clear();
      for (const auto* messages : group_.postedToEach_) {
        const std::vector<std::byte>& forMe = messages->at(rank_);
        fromAll.insert(fromAll.end(), forMe.begin(), forMe.end());
        offsets.push_back(fromAll.size());
      }
      group_.sync_.arriveAndWait();  // every rank has read: the posted messages may change again
    }

   private:
    LocalRanks& group_;
    int rank_;
  };

  YieldingBarrier sync_;
  std::vector<const std::vector<std::vector<std::byte>>*> postedToEach_;
  std::vector<Member> members_;
};

}  // namespace icnsim::test
