#include "experiment/progress.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdio>

namespace icnsim {

namespace {
std::atomic<bool> lineOpen{false};  // a progress line was drawn and not yet ended
}

void breakProgressLine() {
  if (lineOpen.exchange(false)) fmt::print(stderr, "\n");
}

std::string formatDuration(double s) {
  if (s < 60) return fmt::format("{:.1f}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", int(s) / 60, int(s) % 60);
  return fmt::format("{}h{:02}m", int(s) / 3600, (int(s) % 3600) / 60);
}

ProgressReporter::ProgressReporter(std::string label, bool quiet)
    : label_(std::move(label)), quiet_(quiet), start_(std::chrono::steady_clock::now()), last_(start_) {}

void ProgressReporter::update(double done, double total, const std::string& unit) {
  if (quiet_) return;
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(500) && (done < total || total <= 0)) return;
  last_ = now;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  if (total <= 0) {  // an end not known ahead: no share, no estimate
    fmt::print(stderr, "\r{}: {:.0f} {}, elapsed {}   ", label_, done, unit, formatDuration(elapsed));
    std::fflush(stderr);
    drawn_ = true;
    lineOpen = true;
    return;
  }
  std::string eta = done > 0 && done < total ? formatDuration(elapsed * (total - done) / done) : "-";
  fmt::print(stderr, "\r{}: {:.0f}/{:.0f} {} ({:.0f} %), elapsed {}, left ~{}   ", label_, done, total, unit,
             total > 0 ? 100.0 * done / total : 100.0, formatDuration(elapsed), eta);
  std::fflush(stderr);
  drawn_ = true;
  lineOpen = true;
}

void ProgressReporter::finish() {
  if (!quiet_ && drawn_ && lineOpen.exchange(false)) fmt::print(stderr, "\n");
  drawn_ = false;
}

}  // namespace icnsim
