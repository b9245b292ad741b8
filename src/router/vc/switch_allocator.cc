#include "router/vc/switch_allocator.h"

#include <algorithm>
#include <map>

#include "common/error.h"
#include "common/name_table.h"

namespace icnsim {

namespace {
// Each switch kind by name, with the matching round it repeats (none: the multiplexed switch,
// whose output channels decide alone and never build requests). A new separable allocator
// is a row here and its round, a member of SwitchAllocator.
struct SwitchKindRow {
  SwitchKind kind;
  SwitchAllocator::Round round;
};
const std::map<std::string, SwitchKindRow>& table() {
  static const std::map<std::string, SwitchKindRow> kinds = {
      {"multiplexed", {SwitchKind::kMultiplexed, nullptr}},
      {"separable_input_first", {SwitchKind::kInputFirst, &SwitchAllocator::inputFirstRound}},
      {"separable_output_first", {SwitchKind::kOutputFirst, &SwitchAllocator::outputFirstRound}},
  };
  return kinds;
}

bool byOutput(const SwitchRequest& a, const SwitchRequest& b) {
  return a.output != b.output         ? a.output < b.output
         : a.outputKey != b.outputKey ? a.outputKey < b.outputKey
                                      : a.lane < b.lane;
}
}  // namespace

std::vector<std::string> switchKindNames() { return namesOf(table()); }

SwitchKind switchKindByName(const std::string& name) { return valueByName(table(), name, "switch").kind; }

SwitchAllocator::SwitchAllocator(SwitchKind kind, int speedup, int iterations, int32_t ports)
    : kind_(kind), speedup_(speedup), iterations_(iterations), used_(ports, 0), outputDone_(ports, 0),
      inputPicks_(ports + 1, 0), inputPick_(ports), offered_(ports, 0) {
  for (const auto& [name, row] : table()) {
    if (row.kind == kind) round_ = row.round;
  }
  if (round_ == nullptr) throw InternalError("a switch allocator was made for a switch kind without a matching round");
}

bool SwitchAllocator::open(const SwitchRequest& r) const {
  return !outputDone_[r.output] && (r.input < 0 || used_[r.input] < speedup_);
}

void SwitchAllocator::grant(const SwitchRequest& r, std::vector<int32_t>& granted) {
  granted.push_back(r.lane);
  outputDone_[r.output] = 1;
  touched_.push_back(r.output);
  if (r.input >= 0) {
    ++used_[r.input];
    touched_.push_back(r.input);
  }
}

void SwitchAllocator::match(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted) {
  for (int round = 0; round < iterations_ && !requests.empty(); ++round) {
    (this->*round_)(requests, granted);
    // Only requests that can still be granted take part in the next round.
    requests.erase(std::remove_if(requests.begin(), requests.end(), [&](const SwitchRequest& r) { return !open(r); }),
                   requests.end());
  }
  for (int32_t p : touched_) used_[p] = 0, outputDone_[p] = 0;
  touched_.clear();
}

void SwitchAllocator::inputFirstRound(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted) {
  // Each input offers its best lanes, one per output and as many as it has places left.
  std::sort(requests.begin(), requests.end(), byInput);
  picked_.clear();
  for (size_t i = 0; i < requests.size();) {
    size_t end = i;
    while (end < requests.size() && requests[end].input == requests[i].input) ++end;
    const int places = requests[i].input < 0 ? 1 << 30 : speedup_ - used_[requests[i].input];
    const size_t first = picked_.size();
    for (size_t k = i; k < end && static_cast<int>(picked_.size() - first) < places; ++k) {
      const bool sameOutput = std::any_of(picked_.begin() + static_cast<long>(first), picked_.end(),
                                          [&](const SwitchRequest& p) { return p.output == requests[k].output; });
      if (!sameOutput && !outputDone_[requests[k].output]) picked_.push_back(requests[k]);
    }
    i = end;
  }
  std::sort(picked_.begin(), picked_.end(), byOutput);
  for (size_t i = 0; i < picked_.size(); ++i) {
    if (i == 0 || picked_[i].output != picked_[i - 1].output) grant(picked_[i], granted);
  }
}

void SwitchAllocator::outputFirstRound(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted) {
  // Each output picks its best lane; each input then accepts its best picks.
  std::sort(requests.begin(), requests.end(), byOutput);
  picked_.clear();
  for (size_t i = 0; i < requests.size(); ++i) {
    if (i == 0 || requests[i].output != requests[i - 1].output) picked_.push_back(requests[i]);
  }
  std::sort(picked_.begin(), picked_.end(), byInput);
  for (const SwitchRequest& p : picked_) {
    if (open(p)) grant(p, granted);
  }
}

}  // namespace icnsim
