#include "kernel/phase_team.h"

namespace icnsim {

namespace {

// Spins while `waiting()` holds, yielding the core after a few thousand tries; returns
// false if it gave up after `patience` tries (the caller may then block).
template <typename Waiting>
bool spinWhile(Waiting&& waiting, int patience = -1) {
  for (int spins = 0; waiting(); ++spins) {
    if (spins == patience) return false;
    if (spins > 4000) std::this_thread::yield();
  }
  return true;
}

}  // namespace

PhaseTeam::PhaseTeam(int members) : members_(members < 1 ? 1 : members), errors_(members_) {
  for (int m = 1; m < members_; ++m) threads_.emplace_back([this, m] { work(m); });
}

PhaseTeam::~PhaseTeam() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  for (auto& t : threads_) t.join();
}

void PhaseTeam::perform(int member) {
  try {
    (*phase_)(member);
  } catch (...) {
    errors_[member] = std::current_exception();
  }
}

void PhaseTeam::run(const std::function<void(int)>& phase) {
  if (members_ == 1) return phase(0);
  phase_ = &phase;
  finished_.store(0, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_acq_rel);  // publishes phase_ to the members
  generation_.notify_all();                              // wakes those that went to sleep
  perform(0);
  spinWhile([&] { return finished_.load(std::memory_order_acquire) < members_ - 1; });
  std::exception_ptr first;
  for (auto& e : errors_) {
    if (e && !first) first = e;
    e = nullptr;
  }
  if (first) std::rethrow_exception(first);
}

void PhaseTeam::work(int member) {
  uint64_t seen = 0;
  while (true) {
    // Between runs (the serial parts of a cycle) spin; a team left idle for long (the run
    // is over, its results are being written) sleeps until the next phase.
    if (!spinWhile([&] { return generation_.load(std::memory_order_acquire) == seen; }, 200000)) {
      generation_.wait(seen, std::memory_order_acquire);
      continue;
    }
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    perform(member);
    finished_.fetch_add(1, std::memory_order_acq_rel);
  }
}

}  // namespace icnsim
