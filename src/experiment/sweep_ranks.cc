#include "experiment/sweep_ranks.h"

#include <chrono>
#include <string>
#include <thread>

#include "common/error.h"
#include "common/failure.h"

namespace icnsim {

namespace {

// Messages: a worker says it is ready (first) or sends a result or a failure, each of
// which also asks for the next point; rank 0 answers with a point or with stop.
enum Tag : int { kReady = 1, kResult = 2, kFailed = 3, kWork = 4, kStop = 5 };

// "index\n<rest>"
std::pair<size_t, std::string> splitIndex(const std::string& payload) {
  const size_t newline = payload.find('\n');
  return {std::stoull(payload.substr(0, newline)), newline == std::string::npos ? "" : payload.substr(newline + 1)};
}

// A failure from another rank, as the exception type that gives the same exit code here.
std::exception_ptr remoteFailure(const std::string& text) {
  const size_t newline = text.find('\n');
  const int code = std::stoi(text.substr(0, newline));
  std::string message = text.substr(newline + 1);
  message = message.substr(message.find(": ") == std::string::npos ? 0 : message.find(": ") + 2);
  if (code == kExitConfig) return std::make_exception_ptr(ConfigError(message));
  if (code == kExitStuck) return std::make_exception_ptr(StuckNetworkError(message));
  return std::make_exception_ptr(InternalError(message));
}

void record(PointLedger& ledger, const MpiRanks::Message& m) {
  const auto [index, rest] = splitIndex(m.payload);
  if (m.tag == kFailed) {
    ledger.failed(index, remoteFailure(rest));
    return;
  }
  nlohmann::json result;
  try {
    result = nlohmann::json::parse(rest);
  } catch (const nlohmann::json::exception& e) {
    ledger.failed(index,
                  std::make_exception_ptr(InternalError(std::string("a result from rank ") + std::to_string(m.source) +
                                                        " does not parse: " + e.what())));
    return;
  }
  ledger.finished(index, result, m.source);
}

}  // namespace

void servePointsToRanks(const MpiRanks& ranks, PointLedger& ledger) {
  int working = ranks.size() - 1;
  MpiRanks::Message m;
  while (working > 0) {
    if (!ranks.poll(m)) {
      // Polling, not a blocking receive: OpenMPI's blocking receive spins on a core that
      // this rank's own threads are using to run points.
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    if (m.tag == kResult || m.tag == kFailed) record(ledger, m);
    if (const auto next = ledger.claim()) {
      ranks.send(m.source, kWork, std::to_string(*next));
    } else {
      ranks.send(m.source, kStop, "");
      --working;
    }
  }
}

void runPointsForRankZero(const MpiRanks& ranks, const std::function<nlohmann::json(size_t)>& run) {
  ranks.send(0, kReady, "");
  for (;;) {
    const MpiRanks::Message m = ranks.receive(0);
    if (m.tag != kWork) return;
    const size_t index = std::stoull(m.payload);
    try {
      ranks.send(0, kResult, std::to_string(index) + "\n" + run(index).dump());
    } catch (...) {
      const Failure f = describeFailure(std::current_exception());
      ranks.send(0, kFailed, std::to_string(index) + "\n" + std::to_string(f.exitCode) + "\n" + f.message);
    }
  }
}

RanksStoppedOnFailure::~RanksStoppedOnFailure() {
  if (!ranks_) return;
  for (int r = 1; r < ranks_->size(); ++r) {
    ranks_->receive(r);  // its kReady: the first thing a worker sends
    ranks_->send(r, kStop, "");
  }
}

}  // namespace icnsim
