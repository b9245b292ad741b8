// libFuzzer target over the Netrace reader: any byte string is read as a trace (plain, or
// bzip2 when it starts with "BZh"): its header, then its packets (at most 100,000 a run),
// from its last region when the input's length is odd.
#include "common/error.h"
#include "fuzz_input.h"
#include "traffic/trace/netrace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace icnsim;
  try {
    NetraceReader reader(fuzz::inputFile(data, size, "input.tra"), "fuzz");
    if (size % 2 == 1 && !reader.header().regions.empty())
      reader.seekRegion(static_cast<int>(reader.header().regions.size()) - 1);
    NetracePacket packet;
    for (int n = 0; n < 100000 && reader.next(packet); ++n) {
    }
  } catch (const ConfigError&) {
  }
  return 0;
}
