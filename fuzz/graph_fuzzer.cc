// libFuzzer target over the graph-file readers (icnsim, BookSim anynet and GML, told apart by
// the first word) and the network built from them: any byte
// string is read as topology.file of a graph topology with shortest-path routing (16 lanes:
// a class per hop up to diameter 16), built as
// `icnsim validate` builds it (the deadlock check included, within a small budget).
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace icnsim;
  const std::string path = fuzz::inputFile(data, size, "input.graph");
  fuzz::buildAsValidateDoes(
      "[simulation]\nmemory_limit_gb = 0.25\ndeadlock_check_limit = 2e6\n"
      "[topology]\ntype = \"graph\"\nfile = \"" +
      path + "\"\n[routing]\ntype = \"shortest_path\"\n[router]\nlanes = 16\ndepth = 2\n[traffic]\nload = 0.1\n");
  return 0;
}
