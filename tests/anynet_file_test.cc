// BookSim's anynet files as graphs (topology/anynet_file.h): routers, nodes and links read as
// BookSim reads them, a link's latency per direction (checked on a packet's zero-load
// latency), the format found from the file's first word, and malformed files refused naming
// the file and line.
#include <gtest/gtest.h>

#include <fstream>

#include "test_util.h"
#include "topology/anynet_file.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

std::string anynetFile(const std::string& name, const std::string& text) {
  const auto path = tempDir("anynet_" + name) / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string readError(const std::string& text) {
  return configErrorOf([&] { readAnynetFile(anynetFile("bad", text), "topology.file"); });
}

nlohmann::json runAnynet(const std::string& file, const std::string& format = "") {
  // Terminal 0 sends rarely to terminal 1: every latency is the zero-load one.
  auto d = doc("[topology]\ntype = \"graph\"\nfile = \"" + file + "\"\n" + format +
               "[routing]\ntype = \"shortest_path\"\n[simulation]\nwarmup_cycles = 100\nmeasure_cycles = 20000\n"
               "[router]\nlanes = 2\ndepth = 16\n" +
               kStreamFromTerminal0);
  for (const char* o : {"traffic.process=\"poisson\"", "traffic.rate=0.002", "traffic.packet_length=4"}) {
    d->applyOverride(o);
  }
  return Simulation(d).run();
}

}  // namespace

TEST(AnynetFile, RoutersNodesAndLinksAreReadAsBookSimReadsThem) {
  // A triangle: router 0 has terminals 0 and 1; 0 -> 1 takes 3 cycles and 1 -> 0 keeps 1; the
  // link 2 -> 0 is given from router 2's side only.
  const GraphFile g = readAnynetFile(anynetFile("triangle",
                                                "router 0 node 0 node 1 router 1 3\n"
                                                "router 1 node 2 router 2\n"
                                                "node 3 router 2\nrouter 2 router 0\n"),
                                     "topology.file");
  EXPECT_EQ(g.routers, 3);
  EXPECT_EQ(g.terminals, (std::vector<int>{2, 1, 1}));
  ASSERT_EQ(g.links.size(), 3u);  // each pair once, whichever side named it
  const auto link = [&](size_t i) {
    const GraphLink& l = g.links[i];
    return std::vector<int>{l.a, l.b, l.bandwidth, l.latency, l.latencyBack};
  };
  EXPECT_EQ(link(0), (std::vector<int>{0, 1, 1, 3, 1}));
  EXPECT_EQ(link(1), (std::vector<int>{0, 2, 1, 1, 1}));
  EXPECT_EQ(link(2), (std::vector<int>{1, 2, 1, 1, 1}));
}

TEST(AnynetFile, EachDirectionOfALinkHasItsOwnLatency) {
  // 11 cycles from router 0 to router 1: a packet from terminal 0 to terminal 1 takes 10
  // cycles more than over a 1-cycle channel; 11 cycles back from router 1 changes nothing.
  const auto fast = runAnynet(anynetFile("fast", "router 0 node 0 router 1\nrouter 1 node 1\n"));
  const auto slow = runAnynet(anynetFile("slow", "router 0 node 0 router 1 11\nrouter 1 node 1\n"));
  const auto back = runAnynet(anynetFile("back", "router 0 node 0 router 1\nrouter 1 node 1 router 0 11\n"));
  ASSERT_GT(fast["latency"]["count"].get<int>(), 5);
  EXPECT_EQ(fast["latency"]["min"], fast["latency"]["max"]);
  EXPECT_EQ(slow["latency"]["min"].get<int>(), fast["latency"]["min"].get<int>() + 10);
  EXPECT_EQ(slow["latency"]["max"].get<int>(), fast["latency"]["max"].get<int>() + 10);
  EXPECT_EQ(back["latency"]["max"], fast["latency"]["max"]);
}

TEST(AnynetFile, TheFormatIsFoundFromTheFirstWordOrGiven) {
  const std::string file = anynetFile("auto", "# BookSim anynet\n\nrouter 0 node 0 router 1\nrouter 1 node 1\n");
  EXPECT_EQ(runAnynet(file)["terminals"], 2);
  EXPECT_EQ(runAnynet(file, "format = \"anynet\"\n")["terminals"], 2);
  const std::string e = configErrorOf([&] { runAnynet(file, "format = \"icnsim\"\n"); });
  EXPECT_NE(e.find("expected 'routers N' before 'router'"), std::string::npos) << e;
}

TEST(AnynetFile, MalformedFilesAreRefusedNamingFileAndLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"router 0 node 0\nswitch 1 node 1\n", "bad:2): expected 'router' or 'node' to begin the line, got 'switch'"},
      {"node 0 node 1\n", "a node connects to a router, not to another node"},
      {"router 0 node 0\nrouter 1 node 0\n", "bad:2): node 0 is on router 0 and on router 1"},
      {"router 0 node 0 router 0\n", "router 0 is linked to itself"},
      {"router 0 node 0 2\n", "a terminal channel's latency is timing.channel_latency here"},
      {"router 0 node 1 router 1\nrouter 1 node 0\n",
       "node 1 is terminal 0 here (terminals are numbered router by router, router 0's first)"},
      {"router 0 node 0 router 2\nrouter 2 node 1\n", "no router 1: routers are numbered 0 to 2"},
      {"router 0 node x\n", "expected a node number"},
      {"router 0 router 1 0\n", "expected a latency in cycles, or 'router' or 'node'"},
  };
  for (const auto& [text, part] : cases) {
    const std::string e = readError(text);
    EXPECT_NE(e.find(part), std::string::npos) << text << "\n" << e;
    EXPECT_NE(e.find("topology.file"), std::string::npos) << e;
  }
}
