// libFuzzer target over the GOAL schedule reader: any byte string is read as a GOAL file.
#include "common/error.h"
#include "fuzz_input.h"
#include "traffic/schedule/goal_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace icnsim;
  try {
    GoalCounts counts;
    readGoal(fuzz::inputFile(data, size, "input.goal"), "fuzz", counts);
  } catch (const ConfigError&) {
  }
  return 0;
}
