#include "traffic/trace/netrace_reader.h"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <cstring>

#include "common/error.h"

namespace icnsim {
namespace {

constexpr uint32_t kMagic = 0x484A5455;
constexpr size_t kHeaderBytes = 72, kRegionBytes = 24, kPacketBytes = 21;
constexpr uint32_t kMaxNotes = 8192, kMaxRegions = 1 << 16;

// Little-endian fields of a record, whatever the host's order.
uint64_t field(const uint8_t* at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | at[i];
  return v;
}

}  // namespace

int netracePacketBytes(uint8_t type) {
  // By type code: 8 bytes for requests, acknowledgements and errors, 72 for those carrying a
  // 64-byte line; -1 for the codes the format leaves undefined (0, 7-12, 17-24, 26, 31 on).
  static constexpr std::array<int8_t, 31> kBytes = {-1, 8,  72, 72, 72, 8,  72, -1, -1, -1, -1, -1, -1, 8, 8, 8,
                                                    72, -1, -1, -1, -1, -1, -1, -1, -1, 8,  -1, 8,  8,  8, 72};
  return type < kBytes.size() ? kBytes[type] : -1;
}

NetraceReader::NetraceReader(const std::string& path, const std::string& name) : in_(path, name) { readHeader(); }

void NetraceReader::readHeader() {
  std::array<uint8_t, kHeaderBytes> h{};
  in_.readExactly(h.data(), h.size(), "the 72-byte header");
  auto fail = [&](const std::string& what) { throw ConfigError(fmt::format("{}: {}", where(), what)); };
  if (field(&h[0], 4) != kMagic) {
    fail(
        fmt::format("not a netrace trace: its first 4 bytes are 0x{:08x}, expected 0x{:08x}", field(&h[0], 4), kMagic));
  }
  const float version = std::bit_cast<float>(static_cast<uint32_t>(field(&h[4], 4)));
  if (version != 1.0f) fail(fmt::format("netrace version {}: only 1.0 is read", version));
  const char* name = reinterpret_cast<const char*>(&h[8]);
  header_.benchmark.assign(name, strnlen(name, 30));
  header_.nodes = h[38];
  header_.cycles = field(&h[40], 8);
  header_.packets = field(&h[48], 8);
  const uint64_t notes = field(&h[56], 4), regions = field(&h[60], 4);
  if (header_.nodes == 0) fail("the header gives 0 nodes");
  if (notes >= kMaxNotes) fail(fmt::format("notes of {} bytes: the format allows fewer than {}", notes, kMaxNotes));
  if (regions > kMaxRegions) fail(fmt::format("{} regions: more than {} are not read", regions, kMaxRegions));
  std::string text(notes, '\0');
  in_.readExactly(text.data(), notes, "the notes");
  header_.notes.assign(text.c_str());  // stored with its terminating NUL
  for (uint64_t r = 0; r < regions; ++r) {
    std::array<uint8_t, kRegionBytes> b{};
    in_.readExactly(b.data(), b.size(), "a region record");
    header_.regions.push_back({field(&b[0], 8), field(&b[8], 8), field(&b[16], 8)});
  }
}

uint64_t NetraceReader::seekRegion(int region) {
  if (region == 0 && header_.regions.empty()) return 0;
  if (region < 0 || region >= static_cast<int>(header_.regions.size())) {
    throw ConfigError(fmt::format("{}: no region {}: the trace has {}", where(), region, header_.regions.size()));
  }
  if (packetsRead_ > 0) throw InternalError("NetraceReader::seekRegion after packets were read");
  in_.skip(header_.regions[region].offset, "the regions before the one asked for");
  uint64_t start = 0;
  for (int r = 0; r < region; ++r) start += header_.regions[r].cycles;
  return start;
}

bool NetraceReader::next(NetracePacket& p) {
  std::array<uint8_t, kPacketBytes> b{};
  const size_t got = in_.read(b.data(), b.size());
  if (got == 0) return false;
  if (got < b.size()) in_.readExactly(b.data() + got, b.size() - got, "a packet record");  // throws
  p.cycle = field(&b[0], 8);
  p.id = static_cast<uint32_t>(field(&b[8], 4));
  p.address = static_cast<uint32_t>(field(&b[12], 4));
  p.type = b[16], p.source = b[17], p.destination = b[18], p.nodeTypes = b[19];
  std::array<uint8_t, 4 * 255> d{};
  in_.readExactly(d.data(), 4 * size_t{b[20]}, "a packet's dependency list");
  p.dependents.resize(b[20]);
  for (int i = 0; i < b[20]; ++i) p.dependents[i] = static_cast<uint32_t>(field(&d[4 * i], 4));
  auto fail = [&](const std::string& what) {
    throw ConfigError(fmt::format("{}: packet {} (the {}th): {}", where(), p.id, packetsRead_ + 1, what));
  };
  if (p.source >= header_.nodes || p.destination >= header_.nodes) {
    fail(fmt::format("node {} or {} is beyond the header's {} nodes", p.source, p.destination, header_.nodes));
  }
  if (p.cycle < lastCycle_) fail(fmt::format("cycle {} is before the packet before it ({})", p.cycle, lastCycle_));
  lastCycle_ = p.cycle;
  ++packetsRead_;
  return true;
}

}  // namespace icnsim
