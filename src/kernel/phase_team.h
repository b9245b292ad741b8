// A fixed team of threads that runs one phase of a cycle at a time: run(phase) calls
// phase(member) on every member at once (member 0 on the calling thread) and returns when
// all have finished. A network model splits its cycle into phases whose members touch
// disjoint state, so the result does not depend on how the members interleave.
//
// Phases are short (microseconds on a small network), so members wait by spinning on an
// atomic generation counter, yielding after a while so that an oversubscribed machine (a
// test suite on two cores) still makes progress. An exception thrown by a member is
// rethrown by run() on the calling thread.
#pragma once
#include <atomic>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace icnsim {

class PhaseTeam {
 public:
  explicit PhaseTeam(int members);
  ~PhaseTeam();
  PhaseTeam(const PhaseTeam&) = delete;
  PhaseTeam& operator=(const PhaseTeam&) = delete;

  int size() const { return members_; }
  void run(const std::function<void(int member)>& phase);

 private:
  void work(int member);
  void perform(int member);  // the current phase, its exception kept

  int members_;
  std::vector<std::thread> threads_;
  const std::function<void(int)>* phase_ = nullptr;
  std::atomic<uint64_t> generation_{0};  // a new phase starts when it changes
  std::atomic<int> finished_{0};         // members done with the current phase
  std::atomic<bool> stop_{false};
  std::vector<std::exception_ptr> errors_;  // per member, of the current phase
};

}  // namespace icnsim
