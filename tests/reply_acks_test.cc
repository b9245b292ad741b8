// Replies (traffic.reply_packets) and NIFDY's acks carried by them (nic.reply_acks, NIFDY
// §6.1): every message taken is answered by its destination, a reply's ack replaces the
// request's, replies never wait behind requests that wait for them, and bad input is refused
// naming its key.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

// Terminal 0 alone sends one-packet requests to terminal 2 of a 4x4 mesh; processors with
// send and receive overheads behind NIFDY (O 4, B 4).
const std::string kOneSender = std::string(kMesh4x4) + R"(
[simulation]
warmup_cycles = 0
measure_cycles = 6000
[processor]
send_overhead = 10
receive_overhead = 10
[nic]
type = "nifdy"
O = 4
B = 4
[traffic]
load = 0.1
packet_length = 4
reply_packets = 1
[traffic.pattern]
type = "hotspot"
nodes = [2]
[[traffic.group]]
name = "sender"
terminals = [0]
)";

// Every terminal sends to every other at a load that, with replies, keeps the processors
// busy: requests wait for their replies in the OPT while the pools fill.
const std::string kEveryone = std::string(kMesh4x4) + R"(
[simulation]
warmup_cycles = 2000
measure_cycles = 6000
drain_cycles = 40000
[processor]
send_overhead = 10
receive_overhead = 10
[nic]
type = "nifdy"
O = 4
B = 4
reply_acks = true
[traffic]
load = 0.3
packet_length = 8
reply_packets = 1
[traffic.pattern]
type = "uniform"
exclude_self = true
)";

double nicCounter(const nlohmann::json& r, const char* name) { return r["nic"][name].get<double>(); }

TEST(Replies, EachMessageIsAnsweredByAReplyOfTheGivenLength) {
  // One-packet requests, two-packet replies: per request three packets are delivered.
  std::string toml = kOneSender;
  toml.replace(toml.find("reply_packets = 1"), 17, "reply_packets = 2\nreply_packet_length = 2");
  const nlohmann::json r = runToml(toml);
  const uint64_t messages = r["measured_messages"].get<uint64_t>();
  EXPECT_GT(messages, 100u);
  EXPECT_EQ(messages % 2, 0u);
  EXPECT_EQ(r["measured_packets"].get<uint64_t>(), messages / 2 * 3);
  EXPECT_EQ(r["latency"]["count"].get<uint64_t>(), messages / 2 * 3);
  EXPECT_TRUE(r["drained"].get<bool>());
}

TEST(ReplyAcks, TheReplyCarriesTheAckAndNoAckPacketIsSent) {
  const nlohmann::json plain = runToml(kOneSender);
  std::string toml = kOneSender;
  toml.replace(toml.find("B = 4"), 5, "B = 4\nreply_acks = true");
  const nlohmann::json carried = runToml(toml);
  // Without: an ack per data packet, request or reply; with: none, and every request's
  // ack goes with its reply.
  EXPECT_GE(nicCounter(plain, "nifdy_acks"), static_cast<double>(plain["measured_messages"].get<uint64_t>()));
  EXPECT_EQ(nicCounter(carried, "nifdy_acks"), 0.0);
  const double requests = static_cast<double>(carried["measured_messages"].get<uint64_t>()) / 2;
  EXPECT_GE(nicCounter(carried, "nifdy_acks_by_reply"), requests);
  EXPECT_LE(nicCounter(carried, "nifdy_acks_by_reply"), requests + 5);  // the few created after the window
  EXPECT_TRUE(carried["drained"].get<bool>());
  EXPECT_EQ(carried["measured_messages"], plain["measured_messages"]);  // the same requests
  EXPECT_LT(carried["flit_hops"].get<uint64_t>(), plain["flit_hops"].get<uint64_t>());
}

TEST(ReplyAcks, RepliesNeverWaitBehindRequestsThatWaitForThem) {
  // Replies written behind a full pool of requests, each waiting for a reply, stopped every
  // NI: replies are written first, into a full pool if need be.
  const nlohmann::json r = runToml(kEveryone);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_GT(r["delivered_packets"].get<uint64_t>(), 1000u);
  EXPECT_EQ(nicCounter(r, "nifdy_acks"), 0.0);
}

TEST(ReplyAcks, AReplyGoesOutEvenWhenThePoolIsFull) {
  // Pairs that send to each other, one packet outstanding and one in the pool: both pools
  // hold a request waiting for the other's reply, which must be written all the same.
  std::string toml = kEveryone;
  toml.replace(toml.find("O = 4\nB = 4"), 11, "O = 1\nB = 1");
  toml.replace(toml.find("type = \"uniform\"\nexclude_self = true"), 36, "type = \"bit_complement\"");
  const nlohmann::json r = runToml(toml);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_GT(r["delivered_packets"].get<uint64_t>(), 1000u);
}

TEST(ReplyAcks, MultiPacketRequestsInDialogsAndAcksOnArrivalDrainWithTheLastScalarPacketAcked) {
  // Requests of 1 to 6 packets, bulk dialogs for those of 4 or more, acks on arrival: only a
  // request whose last packet went scalar owes its ack to the reply.
  std::string toml = kEveryone;
  toml.replace(toml.find("reply_acks = true"), 17, "reply_acks = true\nD = 1\nW = 4\nack_on = \"arrival\"");
  toml.replace(toml.find("load = 0.3"), 10, "load = 0.15");
  toml += "[[traffic.message_length]]\nname = \"mixed\"\nshare = 1.0\npackets = [1, 6]\n";
  const nlohmann::json r = runToml(toml);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_GT(nicCounter(r, "nifdy_acks"), 0.0);           // the long requests' earlier packets
  EXPECT_GT(nicCounter(r, "nifdy_acks_by_reply"), 0.0);  // the short ones
}

TEST(ReplyAcks, AnAckThatCouldNeverBeSentIsRefused) {
  // One direction of a link of a 4-node line fails: terminal 2 reaches 1, 1 cannot reach 2.
  const std::string toml = R"(
[topology]
type = "mesh"
k = 4
n = 1
[routing]
type = "shortest_path"
[router]
lanes = 4
depth = 4
[processor]
send_overhead = 10
receive_overhead = 10
[nic]
type = "nifdy"
[traffic]
load = 0.1
packet_length = 4
[faults]
on_disconnect = "drop"
[[faults.link]]
router = 1
port = 0
direction = "one"
)";
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("faults.on_disconnect"), std::string::npos) << error;
  EXPECT_NE(error.find("but not back"), std::string::npos) << error;
  std::string both = toml;
  both.replace(both.find("direction = \"one\""), 17, "direction = \"both\"");
  EXPECT_EQ(runErrorOf(both), "(accepted)");
}

TEST(ReplyAcks, RunsAreTheSameOnOneAndTwoThreads) {
  const auto [one, two] = resultsOnOneAndThreads(kEveryone, 2);
  EXPECT_EQ(one, two);
}

TEST(ReplyAcks, BadInputIsRefusedNamingTheKey) {
  std::string noReplies = kEveryone;
  noReplies.replace(noReplies.find("reply_packets = 1"), 17, "reply_packets = 0");
  EXPECT_NE(runErrorOf(noReplies).find("nic.reply_acks"), std::string::npos) << runErrorOf(noReplies);
  EXPECT_NE(runErrorOf(noReplies).find("traffic.reply_packets > 0"), std::string::npos);
  const std::string lossy = kEveryone + "[faults]\nflit_error_rate = 1e-4\n";
  EXPECT_NE(runErrorOf(lossy).find("not sent again"), std::string::npos) << runErrorOf(lossy);
  std::string resent = kEveryone;
  resent.replace(resent.find("reply_acks = true"), 17, "reply_acks = true\nretransmit_timeout = 1000");
  EXPECT_NE(runErrorOf(resent).find("not sent again"), std::string::npos) << runErrorOf(resent);
  std::string phased = kOneSender;
  phased.replace(phased.find("load = 0.1"), 10, "process = \"phased\"");
  EXPECT_NE(runErrorOf(phased).find("traffic.reply_packets"), std::string::npos) << runErrorOf(phased);
  std::string tooLong = kOneSender;
  tooLong.replace(tooLong.find("reply_packets = 1"), 17, "reply_packets = 1\nreply_packet_length = 5");
  EXPECT_NE(runErrorOf(tooLong).find("traffic.reply_packet_length"), std::string::npos) << runErrorOf(tooLong);
}

}  // namespace
