#include "traffic/workload.h"

#include <fmt/format.h>

#include "config/config.h"

namespace icnsim {

namespace {

const StringKey kProcessType = declarePartKey<TrafficSource>(
    {"traffic"}, "process", "bernoulli", "how each terminal creates messages (traffic/traffic_source.h)");
const IntKey kReplyPackets =
    declareInt({"traffic"}, "reply_packets", 0, 0, 1 << 20,
               "packets of the reply each message gets from its destination once the destination's processor has "
               "taken it all, back to its source in the message's class (replies are not answered); 0: no replies");
const IntKey kReplyPacketLength = declareInt({"traffic"}, "reply_packet_length", 0, 0, 1 << 20,
                                             "flits of a reply's packets (0: the request's packet length)");

}  // namespace

Workload::Workload(const TrafficContext& ctx, const ConfigNode& node) {
  const std::string process = node.get(kProcessType);
  source_ = Registry<TrafficSource>::instance().create(process, ctx, node, kProcessType.name);
  builder_ = std::make_unique<MessageBuilder>(ctx, node, source_->openLoop());
  source_->start(*builder_);
  replyPackets_ = static_cast<int>(node.get(kReplyPackets));
  replyPacketLength_ = static_cast<int>(node.get(kReplyPacketLength));
  if (replyPackets_ > 0 && !source_->openLoop() && !source_->saturation()) {
    node.fail(kReplyPackets, fmt::format("replies are built for the synthetic sources (open loop or "
                                         "saturation); traffic.process = \"{}\" has its own message order",
                                         process));
  }
  if (replyPacketLength_ > builder_->maxPacketLength()) {
    node.fail(kReplyPacketLength, fmt::format("{} flits is longer than the workload's longest packet ({} flits)",
                                              replyPacketLength_, builder_->maxPacketLength()));
  }
}

void Workload::received(int terminal, const Message& m, Cycle now) {
  if (m.reply) return;  // the workload's own answer: no source waits for it
  source_->received(terminal, m, now);
  if (replyPackets_ == 0 || m.delivered + 1 < m.packets) return;  // not the message's last packet
  MessageShape reply;
  reply.destination = m.source;
  reply.packets = replyPackets_;
  reply.packetLength = replyPacketLength_ > 0 ? replyPacketLength_ : m.packetLength;
  reply.trafficClass = m.trafficClass;
  reply.tag = m.tag;
  reply.reply = true;
  builder_->create(terminal, now, m.tracked, reply);
}

Workload::~Workload() = default;

void Workload::generate(Cycle now, bool tracked) {
  tracked_ = tracked;
  source_->generate(now, tracked);
  builder_->generateStreams(now, tracked);
}

std::vector<uint64_t> Workload::trackedGroupFlits() const {
  std::vector<uint64_t> flits;
  for (size_t g = 0; g < groups().names.size(); ++g) flits.push_back(trackedGroupFlits(static_cast<int>(g)));
  return flits;
}

TrafficDescription Workload::describe() const {
  TrafficDescription d;
  for (const TrafficClass& c : classes()) d.classes.push_back({c.name, c.share, c.priority});
  for (const MessageLengthClass& l : lengthClasses()) d.lengths.push_back({l.name, l.share, l.packets, l.meanPackets});
  const TerminalGroups& g = groups();
  for (size_t i = 0; i < g.names.size(); ++i) {
    d.groups.push_back({g.names[i], g.members[i].size(), groupRate(static_cast<int>(i))});
  }
  d.terminals = g.groupOf.size();
  d.classStreams = hasClassStreams();
  return d;
}

}  // namespace icnsim
