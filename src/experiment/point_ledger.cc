#include "experiment/point_ledger.h"

namespace icnsim {

PointLedger::PointLedger(std::vector<size_t> todo, std::vector<std::string>& rows, AppendFile& csv,
                         ProgressReporter& progress, size_t alreadyFinished, Finish finish)
    : todo_(std::move(todo)), rows_(rows), csv_(csv), progress_(progress), finished_(alreadyFinished),
      finish_(std::move(finish)) {}

std::optional<size_t> PointLedger::claim() {
  std::lock_guard lock(mutex_);
  if (failure_ || nextTodo_ >= todo_.size()) return std::nullopt;
  return todo_[nextTodo_++];
}

void PointLedger::finished(size_t index, const nlohmann::json& record, int rank) {
  try {
    const std::string row = finish_(index, record);
    std::lock_guard lock(mutex_);
    rows_[index] = row;
    csv_.writeLine(row);
    if (byRank_.size() <= static_cast<size_t>(rank)) byRank_.resize(rank + 1, 0);
    ++byRank_[rank];
    progress_.update(double(++finished_), double(rows_.size()), "points");
  } catch (...) {  // the point's file or row could not be written
    failed(index, std::current_exception());
  }
}

void PointLedger::failed(size_t index, std::exception_ptr error) {
  std::lock_guard lock(mutex_);
  if (!failure_) failure_ = error, failedPoint_ = index;
}

std::exception_ptr PointLedger::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

size_t PointLedger::failedPoint() const {
  std::lock_guard lock(mutex_);
  return failedPoint_;
}

std::vector<size_t> PointLedger::pointsByRank() const {
  std::lock_guard lock(mutex_);
  return byRank_;
}

}  // namespace icnsim
