// Every file icnsim reads goes through here, under one rule: it must be a regular file (a
// symbolic link is followed) of at most a size bound that each kind of file declares. A
// device (/dev/zero), a FIFO, a socket or a directory is refused before it is opened, so
// no reader can grow without bound or block forever, and a file over its bound is refused
// before it is read, naming the bound. Failures are ConfigError: "WHO: PATH: what is wrong".
#pragma once
#include <cstdint>
#include <fstream>
#include <string>

namespace icnsim {

// A kind of input file: what the messages call it and the largest size it may have.
struct InputKind {
  const char* what;    // "graph file", "GOAL schedule", ...
  uintmax_t maxBytes;  // refused above this
};

// The bounds, in one place (docs/reliability.md lists them).
namespace input_kinds {
inline constexpr InputKind kConfiguration{"configuration file", uintmax_t{4} << 20};
inline constexpr InputKind kGraph{"graph file", uintmax_t{256} << 20};
inline constexpr InputKind kPlacement{"placement file", uintmax_t{64} << 20};
inline constexpr InputKind kGoal{"GOAL schedule", uintmax_t{1} << 30};
inline constexpr InputKind kNetrace{"Netrace trace", uintmax_t{64} << 30};
inline constexpr InputKind kOtf2Anchor{"OTF2 anchor file", uintmax_t{16} << 20};
inline constexpr InputKind kOtf2Part{"OTF2 archive file", uintmax_t{64} << 30};
inline constexpr InputKind kRunRecord{"result record", uintmax_t{256} << 20};
}  // namespace input_kinds

// Throws ConfigError unless `path` is a regular file within the kind's bound; returns its
// size. `who` names what asked for the file (a key's location), or is empty.
uintmax_t checkInputFile(const std::string& path, const InputKind& kind, const std::string& who);

// Checks `path` as above and opens it for reading (binary), or throws ConfigError.
std::ifstream openInputFile(const std::string& path, const InputKind& kind, const std::string& who);

// Checks `path` as above and reads it whole.
std::string readInputFile(const std::string& path, const InputKind& kind, const std::string& who);

// True if `path` passes the rule; for optional inputs (a sweep's earlier point files) that
// count as absent when they do not.
bool isReadableInputFile(const std::string& path, const InputKind& kind);

}  // namespace icnsim
