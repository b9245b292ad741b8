// The message-building part every traffic source shares: who sends (source groups, each
// with its offered rate and destination pattern), what a message looks like (length class
// and length in packets, packet length in flits, traffic class with its priority, the
// adaptive-routing header bit), each terminal's random stream, the job-list limit of an
// open-loop source, and the counters of what was created. A source decides only when a
// terminal creates a message (and, for kernels, its destination and length); create()
// draws the rest and hands the message down to the network interface.
//
// Each terminal draws from its own stream, so the sequence of messages is the same whatever
// network it drives; per-packet choices (the adaptive bit) are hashed from the message's
// serial number for the same reason.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/rng.h"
#include "common/untouched_allocator.h"
#include "kernel/message.h"
#include "traffic/class_stream.h"
#include "traffic/pattern/pattern.h"
#include "traffic/pattern/terminal_groups.h"

namespace icnsim {

class NetworkInterface;

struct TrafficClass {
  std::string name;
  double share = 1.0;
  int priority = 0;
  int packetLength = 0;  // flits of its packets (0: drawn from [traffic]'s packet_length)
};

struct MessageLengthClass {
  std::string name;
  double share = 1.0;
  std::vector<int> packets;  // lengths chosen with equal probability
  double meanPackets = 0;    // > 0 instead: geometric lengths (the discrete exponential) with this mean
};

// What a source may fix about a message; the rest is drawn.
struct MessageShape {
  int destination = -1;       // -1: from the group's pattern
  int packets = -1;           // -1: from the length class
  int maxPackets = 1 << 30;   // cap on a drawn length (a phase's remaining budget)
  int32_t tag = 0;            // application kernels: the step of the program it belongs to
  int16_t trafficClass = -1;  // >= 0: a class stream's message (no length class, no group)
  int packetLength = -1;      // -1: drawn from [traffic]'s packet lengths
  bool reply = false;         // the answer to a message taken (with trafficClass): always offered
};

// The longest packet, in flits, of [traffic] `traffic` (its packet_length list).
int maxPacketLength(const ConfigNode& traffic);

class MessageBuilder {
 public:
  // `openLoop`: the source has an offered load (load/rate keys); otherwise they are errors.
  MessageBuilder(const TrafficContext& ctx, const ConfigNode& traffic, bool openLoop);
  ~MessageBuilder();
  void attach(NetworkInterface& nic, MessagePool& messages) { nic_ = &nic, messages_ = &messages; }

  // Creates a message at `terminal` and submits it; returns its id, or -1 if an open-loop
  // source's job list was full (the message was drawn, so every stream stays the same, but
  // it is not offered).
  int32_t create(int terminal, Cycle now, bool tracked, const MessageShape& shape = {});
  // Creates the messages of the classes with a source of their own due at `now`.
  void generateStreams(Cycle now, bool tracked) {
    for (ClassStream& s : streams_) s.generate(*this, now, tracked);
  }
  bool hasStreams() const { return !streams_.empty(); }
  // The terminal may have work for the network interface (a source's own decision).
  void wake(int terminal);
  int packetsOf(int32_t message) const { return (*messages_)[message].packets; }
  bool routesAdaptively(const Message& m, int sequence) const;
  bool routesAnyAdaptively() const { return adaptiveShare_ > 0; }

  // Terminal `terminal`'s stream, seeded when first used: under mpirun split by terminal, a
  // rank uses only its own terminals' (the others stay untouched pages).
  Rng& rng(int terminal) {
    Rng& r = rng_[terminal];
    if (!r.seeded()) r = Rng(seed_, "traffic-source", static_cast<uint64_t>(terminal));
    return r;
  }
  int terminals() const { return static_cast<int>(groups_.groupOf.size()); }
  const TerminalGroups& groups() const { return groups_; }
  bool sends(int terminal) const { return groups_.groupOf[terminal] >= 0; }
  // The terminals that send (in some group), in order, and each one's rank among them.
  const std::vector<int>& senders() const { return senders_; }
  int senderRank(int terminal) const { return senderRank_[terminal]; }
  double groupRate(int group) const { return groupRate_[group]; }  // flits/node/cycle
  double meanMessageFlits() const;
  int maxPacketLength() const { return maxPacketLength_; }
  const std::vector<TrafficClass>& classes() const { return classes_; }
  // The first traffic class with a packet length of its own other than `length` (any length
  // if 0): it would override the lengths a source gives its messages. Null if none.
  const TrafficClass* classWithOtherPacketLength(int length) const {
    for (const TrafficClass& c : classes_) {
      if (c.packetLength > 0 && c.packetLength != length) return &c;
    }
    return nullptr;
  }
  const std::vector<MessageLengthClass>& lengthClasses() const { return lengthClasses_; }

  uint64_t createdFlits() const { return createdFlits_; }
  uint64_t createdReplyFlits() const { return createdReplyFlits_; }  // of those, replies' flits
  // Flits of the messages group `group`'s members created inside the measurement window.
  uint64_t trackedGroupFlits(int group) const {
    return static_cast<size_t>(group) < trackedGroupFlits_.size() ? trackedGroupFlits_[group] : 0;
  }
  uint64_t trackedMessages() const { return trackedMessages_; }
  uint64_t trackedPackets() const { return trackedPackets_; }
  uint64_t notOfferedMessages() const { return notOfferedMessages_; }

 private:
  void readClasses(const ConfigNode& node);
  void readStreams(const TrafficContext& ctx, const ConfigNode& node);
  int drawPackets(const MessageLengthClass& c, Rng& rng) const;
  void readGroups(const TrafficContext& ctx, const ConfigNode& node, double defaultRate);
  // Reads group g's members from `terminals`, or notes that it takes a share or the rest.
  void readGroup(size_t g, const ConfigNode& c, int& rest, double defaultRate, double capacity);
  void placeShares(const TrafficContext& ctx, const std::vector<ConfigNode>& list, int rest);
  void place(size_t g, int terminal, const ConfigNode& at, const char* key);

  bool openLoop_;
  uint64_t seed_;
  std::vector<int> packetLengths_;
  int maxPacketLength_ = 1;
  double adaptiveShare_ = 0;
  int64_t sourceQueueLimit_ = 1024;
  std::vector<MessageLengthClass> lengthClasses_;
  std::vector<TrafficClass> classes_;
  std::vector<ClassStream> streams_;
  int16_t onlySharedClass_ = -1;  // the one class with a share, if only one has
  TerminalGroups groups_;
  std::vector<double> groupRate_;
  std::vector<uint64_t> trackedGroupFlits_;
  std::vector<std::unique_ptr<TrafficPattern>> groupPattern_;
  std::vector<int> senders_, senderRank_;
  std::vector<Rng, UntouchedAllocator<Rng>> rng_;
  std::vector<uint64_t, UntouchedAllocator<uint64_t>> serial_;
  NetworkInterface* nic_ = nullptr;
  MessagePool* messages_ = nullptr;
  uint64_t createdFlits_ = 0, createdReplyFlits_ = 0, trackedMessages_ = 0, trackedPackets_ = 0,
           notOfferedMessages_ = 0;
};

}  // namespace icnsim
