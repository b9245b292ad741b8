// Separable switch allocation for an input-queued router whose crossbar takes at most
// `speedup` flits from each input port per cycle (BookSim's input_speedup and separable
// allocators). Without it (`multiplexed`, our default and Dally's Fig. 9c switch) each output
// channel picks among the lanes routed to it and several lanes of one input may send at once.
//   input_first  - each input port picks up to `speedup` of its requesting lanes (input
//                  arbitration), then each output picks one of the picked (output arbitration)
//   output_first - each output picks one requesting lane, then each input accepts up to
//                  `speedup` of the picks
// `iterations` rounds repeat the matching among the outputs and input places still free.
// Keys are the routers' arbitration keys: lowest wins. The outcome depends only on the
// requests, never on the order they were listed.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace icnsim {

enum class SwitchKind : uint8_t { kMultiplexed, kInputFirst, kOutputFirst };

SwitchKind switchKindByName(const std::string& name);  // throws ConfigError on unknown
std::vector<std::string> switchKindNames();

struct SwitchRequest {
  int32_t input;       // input port (channel) of the requesting lane; -1: not constrained
  int32_t output;      // output channel
  int32_t lane;        // the lane that moves if granted (what the caller gets back)
  uint64_t inputKey;   // arbitration among the lanes of one input
  uint64_t outputKey;  // arbitration among the lanes requesting one output
};

class SwitchAllocator {
 public:
  // One round of matching: grants what it can of `requests` (reordered) into `granted`.
  using Round = void (SwitchAllocator::*)(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted);
  SwitchAllocator(SwitchKind kind, int speedup, int iterations, int32_t ports);
  // Appends the granted lanes to `granted`: at most one per output, at most `speedup` per
  // input. `requests` is reordered.
  void match(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted);

  // True when one round of output-first matching is what the allocator does: each output's
  // pick is then the multiplexed switch's decision, and acceptAtInputs finishes the match
  // without a request list (the fast path of a BookSim router).
  bool picksFromOutputs() const { return kind_ == SwitchKind::kOutputFirst && iterations_ == 1; }
  // The inputs' half of that round: `picks` holds at most one lane per output; each input
  // keeps at most `speedup` of its picks, lowest input key first (ties: lowest lane), as
  // match() would. inputOf(lane) is the lane's input port or -1 (not constrained);
  // inputKey(lane) is asked only for the picks of an input that has too many; then
  // kept(lane, input) is called for each pick kept, in order.
  template <typename InputOf, typename InputKey, typename Kept>
  void acceptAtInputs(std::vector<int32_t>& picks, InputOf&& inputOf, InputKey&& inputKey, Kept&& kept);

  // True when one round of input-first matching with one flit per input is what the
  // allocator does: pickAtInputsThenOutputs then does it from the output channels' ready
  // lanes, with keys asked only in contests (BookSim's allocator, fast).
  bool picksAtInputsFirst() const { return kind_ == SwitchKind::kInputFirst && iterations_ == 1 && speedup_ == 1; }
  struct ReadyLane {
    int32_t lane, input, output;  // input -1: not constrained
    int32_t bit;                  // the lane's bit in its output's mask (below 32)
  };
  // That round. `ready` lists the lanes that may cross, each output's together and in
  // ascending lane order. Each input offers its lowest-key lane (inputKey(lane), asked only
  // when an input has several; ties: lowest lane); the unconstrained lanes offer each
  // output their lowest. pickAtOutput(output, offered) then returns the output's winner
  // among its offered lanes (a mask of bits), and kept(lane) is called for each, outputs in
  // the order `ready` lists them: what match() grants, in match()'s order when `ready`
  // lists outputs in ascending order.
  template <typename InputKey, typename PickAtOutput, typename Kept>
  void pickAtInputsThenOutputs(const std::vector<ReadyLane>& ready, InputKey&& inputKey, PickAtOutput&& pickAtOutput,
                               Kept&& kept);

 private:
  // The order in which an input takes its requests: lowest key first, then lowest lane.
  static bool byInput(const SwitchRequest& a, const SwitchRequest& b) {
    return a.input != b.input         ? a.input < b.input
           : a.inputKey != b.inputKey ? a.inputKey < b.inputKey
                                      : a.lane < b.lane;
  }
  bool open(const SwitchRequest& r) const;  // its output and a place at its input are free
  void grant(const SwitchRequest& r, std::vector<int32_t>& granted);

 public:  // the rounds a switch kind names (switch_allocator.cc's table)
  void inputFirstRound(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted);
  void outputFirstRound(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted);

 private:
  template <typename InputKey>
  void dropBeyondSpeedup(std::vector<int32_t>& picks, std::vector<int32_t>& inputs, InputKey&& inputKey);

  SwitchKind kind_;
  Round round_ = nullptr;
  int speedup_, iterations_;
  std::vector<uint16_t> used_;       // per port: flits granted from it this cycle
  std::vector<uint8_t> outputDone_;  // per port: output granted this cycle
  std::vector<int32_t> touched_;     // ports to reset after the cycle
  std::vector<SwitchRequest> picked_;
  std::vector<int32_t> inputPicks_;  // acceptAtInputs: per input port + 1, its picks (0: from terminals)
  std::vector<int32_t> pickInputs_;  // acceptAtInputs: per pick, its input port
  struct InputPick {
    int32_t ready = -1;  // index into `ready` of the input's best lane so far
    bool keyed = false;  // its key was asked for
    uint64_t key = 0;
  };
  std::vector<InputPick> inputPick_;  // pickAtInputsThenOutputs: per input port
  std::vector<int32_t> offering_;     // pickAtInputsThenOutputs: the inputs with a lane this round
  std::vector<uint32_t> offered_;     // pickAtInputsThenOutputs: per output port, its offered lanes' bits
};

template <typename InputOf, typename InputKey, typename Kept>
void SwitchAllocator::acceptAtInputs(std::vector<int32_t>& picks, InputOf&& inputOf, InputKey&& inputKey, Kept&& kept) {
  // Counts each input's picks (those from terminals in a slot of their own, ignored) without
  // a branch per pick; only an input with more than it may take needs keys.
  bool over = false;
  std::vector<int32_t>& inputs = pickInputs_;
  inputs.resize(picks.size());
  for (size_t i = 0; i < picks.size(); ++i) {
    const int32_t input = inputOf(picks[i]);
    inputs[i] = input;
    over |= (++inputPicks_[input + 1] > speedup_) & (input >= 0);
  }
  if (over) dropBeyondSpeedup(picks, inputs, inputKey);
  for (size_t i = 0; i < picks.size(); ++i) {
    inputPicks_[inputs[i] + 1] = 0;
    kept(picks[i], inputs[i]);
  }
}

template <typename InputKey>
void SwitchAllocator::dropBeyondSpeedup(std::vector<int32_t>& picks, std::vector<int32_t>& inputs,
                                        InputKey&& inputKey) {
  // The contested picks, by input and key; `output` holds the pick's index.
  picked_.clear();
  for (size_t i = 0; i < picks.size(); ++i) {
    const int32_t input = inputs[i];
    if (input >= 0 && inputPicks_[input + 1] > speedup_) {
      picked_.push_back({input, static_cast<int32_t>(i), picks[i], inputKey(picks[i]), 0});
    }
  }
  std::sort(picked_.begin(), picked_.end(), [](const auto& a, const auto& b) { return byInput(a, b); });  // inlined
  for (size_t i = 0, rank = 0; i < picked_.size(); ++i) {
    rank = i > 0 && picked_[i].input == picked_[i - 1].input ? rank + 1 : 0;
    if (rank >= static_cast<size_t>(speedup_)) picks[picked_[i].output] = -1;
  }
  // An input that lost picks kept `speedup` others, so the caller still clears its count.
  size_t kept = 0;
  for (size_t i = 0; i < picks.size(); ++i) {
    if (picks[i] < 0) continue;
    picks[kept] = picks[i], inputs[kept] = inputs[i];
    ++kept;
  }
  picks.resize(kept), inputs.resize(kept);
}

template <typename InputKey, typename PickAtOutput, typename Kept>
void SwitchAllocator::pickAtInputsThenOutputs(const std::vector<ReadyLane>& ready, InputKey&& inputKey,
                                              PickAtOutput&& pickAtOutput, Kept&& kept) {
  // The inputs with a lane, written by index: a push per ready lane, out of line, cost more
  // than the rest of the loop.
  if (offering_.size() < ready.size()) offering_.resize(ready.size());
  int32_t* const offering = offering_.data();
  size_t inputs = 0;
  for (size_t i = 0; i < ready.size(); ++i) {
    const ReadyLane& r = ready[i];
    if (r.input < 0) {  // the output's first unconstrained lane is its lowest
      const bool first = offered_[r.output] == 0;
      offered_[r.output] |= uint32_t(first) << r.bit;
      continue;
    }
    InputPick& best = inputPick_[r.input];
    if (best.ready < 0) {
      best.ready = static_cast<int32_t>(i);
      offering[inputs++] = r.input;
      continue;
    }
    const ReadyLane& b = ready[best.ready];
    if (!best.keyed) best.key = inputKey(b.lane), best.keyed = true;
    const uint64_t key = inputKey(r.lane);
    if (key < best.key || (key == best.key && r.lane < b.lane)) best = {static_cast<int32_t>(i), true, key};
  }
  for (size_t k = 0; k < inputs; ++k) {
    InputPick& pick = inputPick_[offering[k]];
    const ReadyLane& r = ready[pick.ready];
    offered_[r.output] |= uint32_t{1} << r.bit;
    pick = InputPick{};
  }
  for (const ReadyLane& r : ready) {
    if (offered_[r.output] == 0) continue;
    kept(pickAtOutput(r.output, offered_[r.output]));
    offered_[r.output] = 0;
  }
}

}  // namespace icnsim
