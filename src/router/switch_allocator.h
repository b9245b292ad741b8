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
#include <cstdint>
#include <string>
#include <vector>

namespace icnsim {

enum class SwitchKind : uint8_t { kMultiplexed, kInputFirst, kOutputFirst };

SwitchKind switchKindByName(const std::string& name);  // throws ConfigError on unknown
std::vector<std::string> switchKindNames();

struct SwitchRequest {
  int32_t input;      // input port (channel) of the requesting lane; -1: not constrained
  int32_t output;     // output channel
  int32_t lane;       // the lane that moves if granted (what the caller gets back)
  uint64_t inputKey;  // arbitration among the lanes of one input
  uint64_t outputKey; // arbitration among the lanes requesting one output
};

class SwitchAllocator {
 public:
  SwitchAllocator(SwitchKind kind, int speedup, int iterations, int32_t ports);
  // Appends the granted lanes to `granted`: at most one per output, at most `speedup` per
  // input. `requests` is reordered.
  void match(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted);

 private:
  bool open(const SwitchRequest& r) const;  // its output and a place at its input are free
  void grant(const SwitchRequest& r, std::vector<int32_t>& granted);
  void inputFirstRound(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted);
  void outputFirstRound(std::vector<SwitchRequest>& requests, std::vector<int32_t>& granted);

  SwitchKind kind_;
  int speedup_, iterations_;
  std::vector<uint16_t> used_;       // per port: flits granted from it this cycle
  std::vector<uint8_t> outputDone_;  // per port: output granted this cycle
  std::vector<int32_t> touched_;     // ports to reset after the cycle
  std::vector<SwitchRequest> picked_;
};

}  // namespace icnsim
