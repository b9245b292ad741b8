// Netrace packet traces (the format of the PARSEC network-on-chip traces of Hestness, Grot
// and Keckler): after bzip2, a 72-byte header, notes, region records, then packets in cycle
// order, each naming the later packets that may not be injected before it is ejected. The
// layout is in docs/workloads.md. Packets are read one at a time: memory does not grow with
// the trace.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "traffic/trace/byte_stream.h"

namespace icnsim {

struct NetraceRegion {
  uint64_t offset = 0;  // bytes from the first packet
  uint64_t cycles = 0, packets = 0;
};

struct NetraceHeader {
  std::string benchmark, notes;
  int nodes = 0;
  uint64_t cycles = 0, packets = 0;
  std::vector<NetraceRegion> regions;
};

struct NetracePacket {
  uint64_t cycle = 0;  // the earliest it may be injected, in the traced system's cycles
  uint32_t id = 0, address = 0;
  uint8_t type = 0, source = 0, destination = 0, nodeTypes = 0;
  std::vector<uint32_t> dependents;  // ids of later packets that wait for this one's ejection
};

// A packet type's size in bytes (8 for requests and acknowledgements, 72 with a 64-byte
// line), or -1 for a code the format does not define.
int netracePacketBytes(uint8_t type);
inline constexpr int kNetraceMaxPacketBytes = 72;

class NetraceReader {
 public:
  // Reads the header; throws ConfigError naming `name` and the path on a malformed one.
  NetraceReader(const std::string& path, const std::string& name);
  const NetraceHeader& header() const { return header_; }
  // Skips to the first packet of `region` (before any packet is read); returns the cycle the
  // region starts at (the cycles of the regions before it).
  uint64_t seekRegion(int region);
  // The next packet, or false at the end of the trace.
  bool next(NetracePacket& packet);
  const std::string& where() const { return in_.where(); }

 private:
  void readHeader();
  ByteStream in_;
  NetraceHeader header_;
  uint64_t packetsRead_ = 0, lastCycle_ = 0;
};

}  // namespace icnsim
