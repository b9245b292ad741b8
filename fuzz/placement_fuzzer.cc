// libFuzzer target over the placement-file reader: any byte string is read as the
// placement of a 16-rank allreduce on a 4x4 mesh, built as `icnsim validate` builds it.
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace icnsim;
  const std::string path = fuzz::inputFile(data, size, "placement.txt");
  fuzz::buildAsValidateDoes(
      "[topology]\ntype = \"mesh\"\nk = 4\n[routing]\ntype = \"dimension_order\"\n[traffic]\nprocess = "
      "\"schedule\"\n[traffic.schedule]\ncollective = \"allreduce\"\nranks = 16\nplacement = \"file\"\n"
      "placement_file = \"" +
      path + "\"\n");
  return 0;
}
