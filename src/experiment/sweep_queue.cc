#include "experiment/sweep_queue.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <future>
#include <mutex>
#include <thread>

#include "experiment/point_slots.h"

namespace icnsim {

namespace {

using Clock = std::chrono::steady_clock;

// What the sweeps under way share: the first failure and the time accounted so far, from
// the queue's start: a sweep that finishes before one started earlier takes the time since
// then, not only its own, or the earlier one's time before the later one started is lost.
struct QueueState {
  std::mutex mutex;
  std::exception_ptr failure;
  Clock::time_point accountedUntil = Clock::now();
};

// Hands the sweep that just finished its share of the wall time (called locked).
void account(size_t index, const SweepQueueHooks& hooks, QueueState& state) {
  const Clock::time_point end = Clock::now();
  const double seconds = std::chrono::duration<double>(end - state.accountedUntil).count();
  state.accountedUntil = std::max(state.accountedUntil, end);
  try {
    if (hooks.finished) hooks.finished(index, std::max(0.0, seconds));
  } catch (...) {  // its record could not be written: a failure like the sweep's own
    if (!state.failure) state.failure = std::current_exception();
  }
}

// Runs one sweep; `handedOut` is set when the next may start (also when this one fails).
void runQueued(SweepOptions options, size_t index, const SweepQueueHooks& hooks, QueueState& state,
               std::promise<void> handedOut) {
  std::once_flag signalled;
  auto signal = [&] { std::call_once(signalled, [&] { handedOut.set_value(); }); };
  options.allHandedOut = signal;
  std::exception_ptr failure;
  try {
    runSweep(options);
  } catch (...) {
    failure = std::current_exception();
  }
  {
    std::lock_guard lock(state.mutex);
    if (failure) {
      if (!state.failure) state.failure = failure;
    } else {
      account(index, hooks, state);
    }
  }
  signal();  // after a failure is recorded, so that the queue sees it before starting another
}

}  // namespace

void runSweepQueue(std::vector<SweepOptions> sweeps, int jobs, const SweepQueueHooks& hooks) {
  PointSlots slots(std::max(1, jobs));
  QueueState state;
  std::vector<std::thread> running;
  for (size_t i = 0; i < sweeps.size(); ++i) {
    {
      std::lock_guard lock(state.mutex);
      if (state.failure) break;
    }
    if (hooks.starting) hooks.starting(i);
    sweeps[i].slots = &slots;
    std::promise<void> handedOut;
    std::future<void> next = handedOut.get_future();
    running.emplace_back(runQueued, std::move(sweeps[i]), i, std::cref(hooks), std::ref(state), std::move(handedOut));
    next.wait();
  }
  for (auto& t : running) t.join();
  if (state.failure) std::rethrow_exception(state.failure);
}

}  // namespace icnsim
