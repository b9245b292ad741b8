// Netrace traces (traffic/trace/netrace_reader.h, traffic/trace/netrace_source.cc): the reader on
// traces written here byte by byte, plain and bzip2-compressed; its errors; and replays on a
// mesh whose times are checked by hand: a packet that names another as dependent holds it
// back until its own ejection.
#include <bzlib.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "test_util.h"
#include "traffic/trace/netrace_reader.h"

namespace icnsim {
namespace {

struct TracePacket {
  uint64_t cycle;
  uint32_t id;
  uint8_t type, source, destination;
  std::vector<uint32_t> dependents;
};

template <typename T>
void put(std::string& out, T value, int bytes = sizeof(T)) {
  uint64_t v = 0;
  std::memcpy(&v, &value, sizeof(T));
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(v >> (8 * i) & 0xFF));
}

std::string packetBytes(const TracePacket& p) {
  std::string out;
  put(out, p.cycle), put(out, p.id), put(out, uint32_t{0x40});
  put(out, p.type), put(out, p.source), put(out, p.destination), put(out, uint8_t{0x02});
  put(out, static_cast<uint8_t>(p.dependents.size()));
  for (const uint32_t d : p.dependents) put(out, d);
  return out;
}

// A trace of `packets` on `nodes` nodes, with `split` packets in its first region (all of
// them if 0: one region).
std::string traceBytes(const std::vector<TracePacket>& packets, uint8_t nodes, size_t split = 0) {
  std::string body;
  std::vector<std::string> each;
  for (const TracePacket& p : packets) each.push_back(packetBytes(p));
  const std::string notes = std::string("test trace") + '\0';
  std::string h;
  put(h, uint32_t{0x484A5455}), put(h, 1.0f);
  std::string name = "unit";
  name.resize(30, '\0');
  h += name;
  put(h, nodes), put(h, uint8_t{0});
  put(h, packets.empty() ? uint64_t{0} : packets.back().cycle), put(h, uint64_t{packets.size()});
  put(h, static_cast<uint32_t>(notes.size())), put(h, uint32_t{split ? 2u : 1u});
  h += std::string(8, '\0');
  h += notes;
  if (split == 0) split = packets.size();
  uint64_t offset = 0;
  for (size_t i = 0; i < split; ++i) offset += each[i].size();
  const uint64_t cut = split < packets.size() ? packets[split].cycle : packets.back().cycle;
  put(h, uint64_t{0}), put(h, cut), put(h, uint64_t{split});
  if (split < packets.size())
    put(h, offset), put(h, packets.back().cycle - cut), put(h, uint64_t{packets.size() - split});
  for (const std::string& e : each) body += e;
  return h + body;
}

std::string compressed(std::string raw) {
  std::string out(raw.size() + raw.size() / 100 + 600, '\0');
  unsigned int length = static_cast<unsigned int>(out.size());
  EXPECT_EQ(BZ2_bzBuffToBuffCompress(out.data(), &length, raw.data(), static_cast<unsigned int>(raw.size()), 9, 0, 0),
            BZ_OK);
  out.resize(length);
  return out;
}

std::string writeTrace(const std::string& file, const std::string& bytes) {
  const std::string path = (test::tempDir("netrace_" + file) / file).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

const std::vector<TracePacket> kChain = {{0, 0, 1, 0, 15, {1}}, {0, 1, 2, 15, 0, {}}};

TEST(NetraceReader, ReadsHeaderRegionsAndPacketsPlainOrCompressed) {
  const std::vector<TracePacket> packets = {
      {5, 0, 1, 0, 3, {2, 3}}, {7, 1, 2, 3, 0, {}}, {9, 2, 6, 1, 2, {}}, {20, 3, 5, 2, 1, {}}};
  const std::string raw = traceBytes(packets, 4, 2);
  // Plain, one bzip2 stream, and two streams one after the other (as pbzip2 writes).
  for (const std::string& bytes :
       {raw, compressed(raw), compressed(raw.substr(0, 100)) + compressed(raw.substr(100))}) {
    NetraceReader r(writeTrace("t.tra", bytes), "traffic.netrace.file");
    EXPECT_EQ(r.header().benchmark, "unit");
    EXPECT_EQ(r.header().nodes, 4);
    EXPECT_EQ(r.header().packets, 4u);
    EXPECT_EQ(r.header().notes, "test trace");
    ASSERT_EQ(r.header().regions.size(), 2u);
    EXPECT_EQ(r.header().regions[1].packets, 2u);
    NetracePacket p;
    ASSERT_TRUE(r.next(p));
    EXPECT_EQ(p.cycle, 5u);
    EXPECT_EQ(p.dependents, (std::vector<uint32_t>{2, 3}));
    ASSERT_TRUE(r.next(p));
    EXPECT_EQ(p.type, 2);
    EXPECT_EQ(p.source, 3);
    EXPECT_EQ(netracePacketBytes(p.type), 72);
    ASSERT_TRUE(r.next(p));
    ASSERT_TRUE(r.next(p));
    EXPECT_EQ(p.id, 3u);
    EXPECT_FALSE(r.next(p));
    NetraceReader second(writeTrace("t.tra", bytes), "traffic.netrace.file");
    EXPECT_EQ(second.seekRegion(1), 9u);  // region 0 spans cycles 0-8
    ASSERT_TRUE(second.next(p));
    EXPECT_EQ(p.id, 2u);
  }
  EXPECT_EQ(netracePacketBytes(1), 8);
  EXPECT_EQ(netracePacketBytes(7), -1);
  EXPECT_EQ(netracePacketBytes(200), -1);
}

TEST(NetraceReader, AMalformedTraceIsAnErrorNamingTheFile) {
  const std::string good = traceBytes(kChain, 16);
  auto errorOf = [](const std::string& bytes) {
    return test::configErrorOf([&] {
      NetraceReader r(writeTrace("bad.tra", bytes), "traffic.netrace.file");
      NetracePacket p;
      while (r.next(p)) {
      }
    });
  };
  std::string magic = good;
  magic[0] = 'X';
  EXPECT_NE(errorOf(magic).find("traffic.netrace.file ("), std::string::npos);
  EXPECT_NE(errorOf(magic).find("not a netrace trace"), std::string::npos) << errorOf(magic);
  std::string version = good;
  version[7] = 0x40;  // 4.0f
  EXPECT_NE(errorOf(version).find("netrace version 4: only 1.0 is read"), std::string::npos) << errorOf(version);
  EXPECT_NE(errorOf(good.substr(0, 50)).find("the file ends inside the 72-byte header"), std::string::npos);
  EXPECT_NE(errorOf(good.substr(0, good.size() - 3)).find("the file ends inside a packet"), std::string::npos)
      << errorOf(good.substr(0, good.size() - 3));
  const std::string beyond = errorOf(traceBytes({{0, 0, 1, 0, 9, {}}}, 4));
  EXPECT_NE(beyond.find("packet 0 (the 1th): node 0 or 9 is beyond the header's 4 nodes"), std::string::npos) << beyond;
  const std::string early = errorOf(traceBytes({{9, 0, 1, 0, 1, {}}, {3, 1, 1, 1, 0, {}}}, 4));
  EXPECT_NE(early.find("cycle 3 is before the packet before it (9)"), std::string::npos) << early;
  std::string corrupt = compressed(good);
  corrupt[corrupt.size() / 2] ^= 0x55;
  EXPECT_NE(errorOf(corrupt).find("bzip2"), std::string::npos) << errorOf(corrupt);
}

// The trace on the 4x4 mesh (2 lanes of 4 flits) with 5-flit packets, every packet measured.
std::string replayConfig(const std::string& path, const std::string& keys = "") {
  return std::string(test::kMesh4x4) + R"(
[simulation]
warmup_cycles = 0
measure_cycles = 100000
[traffic]
process = "netrace"
packet_length = 5
[traffic.netrace]
file = ")" +
         path + "\"\n" + keys;
}

nlohmann::json replay(const std::string& path, const std::string& keys = "") {
  return test::runToml(replayConfig(path, keys));
}

Cycle completion(const nlohmann::json& j) { return j["netrace"]["completion_cycle"].get<Cycle>(); }

TEST(NetraceSource, ADependentWaitsForItsParentsEjection) {
  // One packet alone, from corner to corner: its time. Then a request and the response it
  // holds back: the response leaves when the request arrives, so the two take the request's
  // time plus the response's (5 flits where the request has 1), plus the latency asked for.
  const Cycle one = completion(replay(writeTrace("one.tra", traceBytes({{0, 0, 1, 0, 15, {}}}, 16))));
  const Cycle back = completion(replay(writeTrace("back.tra", traceBytes({{0, 0, 2, 15, 0, {}}}, 16))));
  const std::string chain = writeTrace("chain.tra", traceBytes(kChain, 16));
  EXPECT_EQ(completion(replay(chain)), one + back);
  EXPECT_EQ(completion(replay(chain, "dependency_latency = 8\n")), one + back + 8);
  // Without the dependency both leave at cycle 0: the longer one's time.
  const nlohmann::json apart =
      replay(writeTrace("apart.tra", traceBytes({{0, 0, 1, 0, 15, {}}, {0, 1, 2, 15, 0, {}}}, 16)));
  EXPECT_EQ(completion(apart), std::max(one, back));
  EXPECT_EQ(apart["netrace"]["packets_injected"], 2);
  EXPECT_EQ(apart["delivered_packets"], 2);
}

// The trace is read as the run goes and each packet forgotten once ejected: a chain of
// request-response pairs ten times as long holds no more packets at once.
TEST(NetraceSource, ALongerTraceHoldsNoMorePacketsAtOnce) {
  auto pairs = [](uint32_t n) {
    std::vector<TracePacket> t;
    for (uint32_t i = 0; i < n; ++i) {  // request i, its response, which holds back request i + 1
      t.push_back({100 * uint64_t{i}, 2 * i, 1, 0, 15, {2 * i + 1}});
      t.push_back({100 * uint64_t{i} + 10, 2 * i + 1, 2, 15, 0,
                   i + 1 < n ? std::vector<uint32_t>{2 * i + 2} : std::vector<uint32_t>{}});
    }
    return t;
  };
  const nlohmann::json shortRun = replay(writeTrace("pairs100.tra", traceBytes(pairs(100), 16)));
  const nlohmann::json longRun = replay(writeTrace("pairs1000.tra", traceBytes(pairs(1000), 16)));
  EXPECT_EQ(longRun["netrace"]["packets_injected"], 2000);
  EXPECT_EQ(longRun["netrace"]["packets_held_peak"], shortRun["netrace"]["packets_held_peak"]);
  EXPECT_LE(longRun["netrace"]["packets_held_peak"].get<int>(), 3);
}

TEST(NetraceSource, TheLatencyCountsFromTheEjectionEvenWhenTheDependentComesLater) {
  // The request is ejected at `one`; its response's trace cycle is 3 later, within the
  // 8-cycle latency, so it leaves at one + 8; at 20 later, past it, at its own cycle.
  const Cycle one = completion(replay(writeTrace("one.tra", traceBytes({{0, 0, 1, 0, 15, {}}}, 16))));
  const Cycle back = completion(replay(writeTrace("back.tra", traceBytes({{0, 0, 2, 15, 0, {}}}, 16))));
  for (const Cycle gap : {Cycle{3}, Cycle{20}}) {
    const std::vector<TracePacket> later = {{0, 0, 1, 0, 15, {1}}, {one + gap, 1, 2, 15, 0, {}}};
    const nlohmann::json j = replay(writeTrace("later.tra", traceBytes(later, 16)), "dependency_latency = 8\n");
    EXPECT_EQ(completion(j), one + std::max<Cycle>(gap, 8) + back) << gap;
  }
}

TEST(NetraceSource, ThePlacementPutsTheNodesOnTerminals) {
  // Node 15 placed beside node 0 (terminal 1 instead of 15): the corner-to-corner packet
  // takes the one-hop time.
  const std::string trace = writeTrace("placed.tra", traceBytes({{0, 0, 1, 0, 15, {}}}, 16));
  const std::string near = writeTrace("near.tra", traceBytes({{0, 0, 1, 0, 1, {}}}, 16));
  const std::string file = (std::filesystem::path(trace).parent_path() / "nodes.txt").string();
  std::ofstream(file) << "0\n15\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n1\n";
  const nlohmann::json placed = replay(trace, "placement = \"file\"\nplacement_file = \"" + file + "\"\n");
  EXPECT_EQ(completion(placed), completion(replay(near)));
  EXPECT_LT(completion(placed), completion(replay(trace)));
}

TEST(NetraceSource, APacketWaitsForItsCycleAndEveryParent) {
  // Packet 2 names no one; packet 3 waits for 0 and 1, of which 1 is sent at cycle 40.
  const std::vector<TracePacket> packets = {
      {0, 0, 1, 0, 5, {3}}, {40, 1, 1, 1, 6, {3}}, {41, 2, 1, 2, 7, {}}, {41, 3, 1, 3, 4, {}}};
  const Cycle late = completion(replay(writeTrace("late.tra", traceBytes({{40, 0, 1, 1, 6, {}}}, 16))));
  const Cycle last = completion(replay(writeTrace("last.tra", traceBytes({{0, 0, 1, 3, 4, {}}}, 16))));
  const nlohmann::json j = replay(writeTrace("both.tra", traceBytes(packets, 16)));
  EXPECT_EQ(completion(j), late + last);
}

TEST(NetraceSource, LocalAndUndefinedPacketsAreCountedAndReleaseTheirDependents) {
  const std::vector<TracePacket> packets = {{0, 0, 1, 4, 4, {2}}, {0, 1, 9, 1, 2, {2}}, {3, 2, 1, 0, 15, {1}}};
  const nlohmann::json j = replay(writeTrace("odd.tra", traceBytes(packets, 16)));
  EXPECT_EQ(j["netrace"]["local_packets"], 1);
  EXPECT_EQ(j["netrace"]["unsupported_packets"], 1);
  EXPECT_EQ(j["netrace"]["backward_dependencies"], 1);  // packet 2 names packet 1, read before it
  EXPECT_EQ(j["netrace"]["packets_injected"], 1);
  EXPECT_FALSE(j["netrace"]["completion_cycle"].is_null());
}

TEST(NetraceSource, ARegionStartsTheClockAtItsFirstCycle) {
  const std::vector<TracePacket> packets = {{0, 0, 1, 0, 15, {}}, {100, 1, 1, 0, 15, {}}, {130, 2, 1, 0, 15, {}}};
  const std::string path = writeTrace("regions.tra", traceBytes(packets, 16, 1));
  const Cycle one = completion(replay(writeTrace("one.tra", traceBytes({{0, 0, 1, 0, 15, {}}}, 16))));
  const nlohmann::json j = replay(path, "region = 1\n");
  EXPECT_EQ(j["netrace"]["start_cycle"], 100);
  EXPECT_EQ(j["netrace"]["packets_read"], 2);
  EXPECT_EQ(completion(j), 30 + one);
  const std::string error = test::configErrorOf([&] { replay(path, "region = 2\n"); });
  EXPECT_NE(error.find("traffic.netrace.region"), std::string::npos) << error;
  EXPECT_NE(error.find("no region 2: the trace has 2 (0 to 1)"), std::string::npos) << error;
  EXPECT_EQ(error.find("traffic.netrace.file"), std::string::npos) << error;  // one location, the key's
}

TEST(NetraceSource, ReplayedTwiceOrOnThreadsTheResultIsTheSame) {
  const std::string sample = std::string(ICNSIM_SOURCE_DIR) + "/experiments/workloads/sample16.tra.bz2";
  const nlohmann::json a = replay(sample), b = replay(sample);
  EXPECT_EQ(a.dump(), b.dump());
  EXPECT_EQ(a["netrace"]["packets_read"], 1280);
  const auto [one, two] = test::resultsOnOneAndThreads(replayConfig(sample), 2);
  EXPECT_EQ(one, two);
}

TEST(NetraceSource, BadKeysAreClearErrors) {
  const std::string chain = writeTrace("chain.tra", traceBytes(kChain, 16));
  const std::string many = writeTrace("many.tra", traceBytes({{0, 0, 1, 0, 1, {}}}, 64));
  EXPECT_NE(test::configErrorOf([&] { replay(many); }).find("the trace has 64 nodes, the network 16 terminals"),
            std::string::npos);
  const std::string shortPackets = test::configErrorOf([&] {
    test::runToml(std::string(test::kMesh4x4) +
                  "[traffic]\nprocess = \"netrace\"\npacket_length = 4\n"
                  "[traffic.netrace]\nfile = \"" +
                  chain + "\"\n");
  });
  EXPECT_NE(shortPackets.find("traffic.netrace.flit_bytes"), std::string::npos) << shortPackets;
  EXPECT_NE(shortPackets.find("traffic.packet_length must be at least 5 (it is 4)"), std::string::npos) << shortPackets;
  const std::string withClass = test::configErrorOf(
      [&] { replay(chain, "[[traffic.class]]\nname = \"fixed\"\nshare = 1\npacket_length = 2\n"); });
  EXPECT_NE(withClass.find("traffic class 'fixed' has packets of 2 flits of its own"), std::string::npos) << withClass;
  const std::string order = test::configErrorOf([&] {
    replay(writeTrace("order.tra", traceBytes({{0, 5, 1, 0, 1, {}}, {0, 3, 1, 1, 0, {}}}, 16)));
  });
  EXPECT_NE(order.find("packet 3 follows packet 5: ids must rise in file order"), std::string::npos) << order;
  const std::string missing = test::configErrorOf([&] { replay("/nonexistent/x.tra"); });
  EXPECT_NE(missing.find("cannot open the Netrace trace: no such file"), std::string::npos) << missing;
}

}  // namespace
}  // namespace icnsim
