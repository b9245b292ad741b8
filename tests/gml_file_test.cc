// GML graphs as topologies (topology/gml_file.h): nodes and edges of a Topology Zoo file
// become routers and links, edge speeds whole channels of a reference rate (a fraction is
// refused naming the edge), the format found from the name or first word, and malformed
// files refused naming the file and line.
#include <gtest/gtest.h>

#include <fstream>

#include "test_util.h"
#include "topology/gml_file.h"
#include "topology/topology.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

// Three routers in a triangle, ids as the Topology Zoo gives them (not 0 to 2), links of
// 1 Gb/s, 2 Gb/s and no stated speed.
const char* kTriangle = R"(# a triangle
graph [
  directed 0
  Network "Triangle"
  node [
    id 10
    label "A"
    Longitude 151.2
  ]
  node [ id 20 label "B" ]
  node [ id 30 label "C" ]
  edge [ source 10 target 20 LinkSpeed "1" LinkSpeedUnits "G" LinkSpeedRaw 1000000000.0 ]
  edge [ source 20 target 30 LinkSpeedRaw 2000000000.0 ]
  edge [ source 30 target 10 LinkLabel "no speed" ]
]
)";

std::string gmlFile(const std::string& name, const std::string& text, const std::string& extension = ".gml") {
  const auto path = tempDir("gml_" + name) / (name + extension);
  std::ofstream(path) << text;
  return path.string();
}

std::string readError(const std::string& text, GmlOptions options = {}) {
  return configErrorOf([&] { readGmlFile(gmlFile("bad", text), "topology.file", options); });
}

std::vector<int> linkOf(const GraphFile& g, size_t i) { return {g.links[i].a, g.links[i].b, g.links[i].bandwidth}; }

}  // namespace

TEST(GmlFile, NodesAndEdgesBecomeRoutersAndLinksOfWholeChannels) {
  const GraphFile plain = readGmlFile(gmlFile("triangle", kTriangle), "topology.file", {2, 0});
  EXPECT_EQ(plain.routers, 3);
  EXPECT_EQ(plain.terminals, (std::vector<int>{2, 2, 2}));
  ASSERT_EQ(plain.links.size(), 3u);
  EXPECT_EQ(linkOf(plain, 0), (std::vector<int>{0, 1, 1}));  // without a reference rate: one channel each
  EXPECT_EQ(linkOf(plain, 1), (std::vector<int>{1, 2, 1}));
  const GraphFile rated = readGmlFile(gmlFile("triangle", kTriangle), "topology.file", {1, 1e9});
  EXPECT_EQ(linkOf(rated, 0), (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(linkOf(rated, 1), (std::vector<int>{1, 2, 2}));  // 2 Gb/s: two channels of 1 Gb/s
  EXPECT_EQ(linkOf(rated, 2), (std::vector<int>{2, 0, 1}));  // no speed: one channel
}

TEST(GmlFile, AnEdgeSlowerThanTheReferenceRateIsOneSlowChannel) {
  // Against 2 Gb/s: the 1 Gb/s edge is one channel of half a flit a cycle; against 155 Mb/s
  // it is 6.45 flits a cycle: seven channels of 0.92 each.
  const GraphFile half = readGmlFile(gmlFile("triangle", kTriangle), "topology.file", {1, 2e9});
  EXPECT_EQ(linkOf(half, 0), (std::vector<int>{0, 1, 1}));
  EXPECT_DOUBLE_EQ(half.links[0].rate, 0.5);
  EXPECT_DOUBLE_EQ(half.links[1].rate, 1.0);
  const GraphFile many = readGmlFile(gmlFile("triangle", kTriangle), "topology.file", {1, 155e6});
  EXPECT_EQ(linkOf(many, 0), (std::vector<int>{0, 1, 7}));
  EXPECT_NEAR(many.links[0].rate, 1e9 / 155e6 / 7, 1e-12);
  const std::string e = readError(kTriangle, {1, 1e6});
  EXPECT_NE(e.find("bad.gml:12): an edge of 1e+09 b/s is 1000 flits per cycle at the reference rate 1e+06 b/s"),
            std::string::npos)
      << e;
  EXPECT_DOUBLE_EQ(parseBitRate("10G", "x"), 1e10);
  EXPECT_DOUBLE_EQ(parseBitRate("155 Mb/s", "x"), 155e6);
  EXPECT_DOUBLE_EQ(parseBitRate("1e9", "x"), 1e9);
  EXPECT_DOUBLE_EQ(parseBitRate("100kbps", "x"), 1e5);
  for (const char* bad : {"fast", "10 Q", "-1G", "0", ""}) {
    const std::string m = configErrorOf([&] { parseBitRate(bad, "topology.reference_rate"); });
    EXPECT_NE(m.find("topology.reference_rate: '"), std::string::npos) << bad << ": " << m;
    EXPECT_NE(m.find("expected a rate in bits per second"), std::string::npos) << m;
  }
}

TEST(GmlFile, AGmlTopologyRunsWithItsChannelsAsPorts) {
  const std::string file = gmlFile("run", kTriangle);
  auto d = doc("[topology]\ntype = \"graph\"\nfile = \"" + file +
               "\"\nterminals = 2\nreference_rate = \"1 Gb/s\"\n[routing]\ntype = \"shortest_path\"\n"
               "[simulation]\nmeasure_cycles = 3000\n[traffic]\nload = 0.1\n");
  const auto topology = makeTopology({}, d->root().child("topology"));
  EXPECT_EQ(topology->numTerminals(), 6);
  EXPECT_EQ(topology->numPorts(1), 2 + 1 + 2);  // router 1 (id 20): two terminals, one channel to A, two to C
  EXPECT_EQ(topology->routerDiameter(), 1);
  EXPECT_EQ(runToml(d->toTomlString())["saturation"]["below"], true);
  // The GML keys belong to GML files: given with another format they are refused.
  const std::string plain = gmlFile("plain", "routers 2\nlink 0 1\n", ".graph");
  const std::string e = runErrorOf("[topology]\ntype = \"graph\"\nfile = \"" + plain +
                                   "\"\nterminals = 2\n[routing]\ntype = \"shortest_path\"\n[traffic]\nload = 0.1\n");
  EXPECT_NE(e.find("topology.terminals: only a GML graph takes it; this file is in the icnsim format"),
            std::string::npos)
      << e;
}

TEST(GmlFile, MalformedFilesAreRefusedNamingFileAndLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"graph [\n  node [ id 0 ]\n", "the list of 'graph' is not closed by ']'"},
      {"graph [ node [ id 0 ] ] ]\n", "expected a key, got ']'"},
      {"graph [\n node [ id 0 ]\n edge [ source 0 target 0 ]\n]\n", "bad.gml:3): the edge joins node 0 to itself"},
      {"graph [\n node [ id 0 ]\n edge [ source 0 target 4 ]\n]\n", "the edge joins node 4, which is not in the graph"},
      {"graph [\n node [ id 0 ]\n node [ id 0 ]\n]\n", "bad.gml:3): node id 0 is given twice"},
      {"graph [\n node [ label \"x\" ]\n]\n", "bad.gml:2): the node has no 'id N'"},
      {"graph [\n node [ id zero ]\n]\n", "id zero: expected an integer"},
      {"Creator \"x\"\n", "no 'graph [ ... ]'"},
      {"graph [ ]\n", "the graph has no node"},
      {"graph [ label \"open\n", "a string is not closed"},
  };
  for (const auto& [text, part] : cases) {
    const std::string e = readError(text);
    EXPECT_NE(e.find(part), std::string::npos) << text << "\n" << e;
    EXPECT_NE(e.find("topology.file ("), std::string::npos) << e;
  }
  std::string deep = "graph [";
  for (int i = 0; i < 40; ++i) deep += " x [";
  EXPECT_NE(readError(deep).find("lists nested more than 32 deep"), std::string::npos);
}

TEST(GmlFile, LinkLatencyFollowsTheNodesDistanceOnTheGlobe) {
  // Sydney to Melbourne: 713 km by great circle; Sydney to itself: no distance.
  const char* cities = R"(graph [
  node [ id 1 label "Sydney" Latitude -33.87 Longitude 151.21 ]
  node [ id 2 label "Melbourne" Latitude -37.81 Longitude 144.96 ]
  node [ id 3 label "Sydney again" Latitude -33.87 Longitude 151.21 ]
  edge [ source 1 target 2 ]
  edge [ source 1 target 3 ]
]
)";
  const GraphFile g = readGmlFile(gmlFile("cities", cities), "topology.file", {1, 0, 0.1});
  EXPECT_EQ(g.links[0].latency, 71);  // 713.4 km x 0.1
  EXPECT_EQ(g.links[1].latency, 0);   // the channel latency
  EXPECT_EQ(readGmlFile(gmlFile("cities", cities), "topology.file", {1, 0, 0}).links[0].latency, 0);
  EXPECT_NE(readError(cities, {1, 0, 100})
                .find("the edge is 71338 cycles long at topology.cycles_per_km = 100, more than a link's 16384"),
            std::string::npos);
  // The error names the node by its GML id.
  const std::string unplaced = readError(
      "graph [\n node [ id 7 Latitude 1 Longitude 2 ]\n node [ id 9 ]\n edge [ source 7 target 9 ]\n]\n", {1, 0, 1});
  EXPECT_NE(unplaced.find("bad.gml:4): the edge's node 9 has no Latitude and Longitude"), std::string::npos)
      << unplaced;
  const char* offTheGlobe = "graph [\n node [ id 0 Latitude 95 Longitude 0 ]\n]\n";
  const std::string wrong = readError(offTheGlobe, {1, 0, 1});
  EXPECT_NE(wrong.find("bad.gml:2): Latitude 95: expected degrees from -90 to 90"), std::string::npos) << wrong;
  // Places are read only when latencies need them.
  EXPECT_EQ(readGmlFile(gmlFile("off", offTheGlobe), "topology.file", {1, 0, 0}).routers, 1);
}
