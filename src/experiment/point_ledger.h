// The state of one sweep's run that everything running its points shares (the local
// threads and, under mpirun, the other ranks): the points still to hand out, the finished
// rows and the growing results.csv, progress, and the first failure, after which no new
// point is handed out. Thread-safe.
#pragma once
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/output_file.h"
#include "experiment/progress.h"

namespace icnsim {

class PointLedger {
 public:
  // Writes a finished point's file and returns its results.csv row (called unlocked, so
  // points finishing together write their files in parallel).
  using Finish = std::function<std::string(size_t index, const nlohmann::json& record)>;

  PointLedger(std::vector<size_t> todo, std::vector<std::string>& rows, AppendFile& csv, ProgressReporter& progress,
              size_t alreadyFinished, Finish finish);

  // The next point to run; none when every point is handed out or one has failed.
  std::optional<size_t> claim();
  // A point's result, run by `rank`; a failure to write it counts as the point's failure.
  void finished(size_t index, const nlohmann::json& record, int rank);
  void failed(size_t index, std::exception_ptr error);

  std::exception_ptr failure() const;
  size_t failedPoint() const;
  // Points finished in this run by each rank (index: rank).
  std::vector<size_t> pointsByRank() const;

 private:
  mutable std::mutex mutex_;
  std::vector<size_t> todo_;
  size_t nextTodo_ = 0;
  std::vector<std::string>& rows_;
  AppendFile& csv_;
  ProgressReporter& progress_;
  size_t finished_;
  Finish finish_;
  std::exception_ptr failure_;
  size_t failedPoint_ = 0;
  std::vector<size_t> byRank_;
};

}  // namespace icnsim
