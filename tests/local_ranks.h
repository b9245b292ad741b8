// Ranks that are threads of the test process: a RankExchange for each of `size` ranks that
// meet at a barrier, so a network split over ranks runs in a unit test (and under the
// sanitizers) without mpirun.
#pragma once
#include <barrier>
#include <cstring>
#include <vector>

#include "kernel/rank_exchange.h"

namespace icnsim::test {

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
      group_.sync_.arrive_and_wait();  // every rank has posted
      offsets.assign(1, 0);
      fromAll.clear();
      for (const auto* messages : group_.postedToEach_) {
        const std::vector<std::byte>& forMe = messages->at(rank_);
        fromAll.insert(fromAll.end(), forMe.begin(), forMe.end());
        offsets.push_back(fromAll.size());
      }
      group_.sync_.arrive_and_wait();  // every rank has read: the posted messages may change again
    }

   private:
    LocalRanks& group_;
    int rank_;
  };

  std::barrier<> sync_;
  std::vector<const std::vector<std::vector<std::byte>>*> postedToEach_;
  std::vector<Member> members_;
};

}  // namespace icnsim::test
