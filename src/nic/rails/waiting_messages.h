// Per-terminal FIFO lists of messages waiting for rails (the allocators that may defer a
// message: local-dynamic, dynamic). One flat vector per terminal with a moving head, so
// an idle terminal costs no allocation.
#pragma once
#include <cstdint>
#include <vector>

namespace icnsim {

class WaitingMessages {
 public:
  explicit WaitingMessages(int terminals) : lists_(terminals), heads_(terminals, 0) {}

  void push(int terminal, int32_t message) { lists_[terminal].push_back(message); }
  bool empty(int terminal) const { return heads_[terminal] == lists_[terminal].size(); }
  int32_t front(int terminal) const { return lists_[terminal][heads_[terminal]]; }
  void pop(int terminal) {
    std::vector<int32_t>& list = lists_[terminal];
    if (++heads_[terminal] == list.size()) list.clear(), heads_[terminal] = 0;
  }

 private:
  std::vector<std::vector<int32_t>> lists_;
  std::vector<size_t> heads_;
};

}  // namespace icnsim
