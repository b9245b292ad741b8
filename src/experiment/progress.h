// Progress on stderr for long runs and sweeps: done/total, elapsed time and an estimate of
// the time left, redrawn at most a few times a second. Silent when quiet.
#pragma once
#include <chrono>
#include <string>

namespace icnsim {

class ProgressReporter {
 public:
  ProgressReporter(std::string label, bool quiet);
  void update(double done, double total, const std::string& unit);
  void finish();

 private:
  std::string label_;
  bool quiet_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

std::string formatDuration(double seconds);

// Ends a progress line still open on stderr, so that a message printed next starts a line
// of its own (sweeps run side by side: experiment/sweep_queue.h).
void breakProgressLine();

}  // namespace icnsim
