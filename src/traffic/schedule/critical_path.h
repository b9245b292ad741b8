// The critical path of a schedule run (schedule_run.h): from an operation back through what
// held it up last — the dependency whose completion (or start, for an irequires) made it
// ready, and for a receive that waited for its message, the send of that message — to an
// operation that waited for nothing. Its time splits into computation (calcs), messages (a
// send's start to its delivery) and the rest (waits on starts, the cycle a ready operation is
// started in), so that compute + message + other is the cycle the path's last operation
// completed.
//
// Found forwards, as the run goes: each operation keeps the path to its start, then to its
// end (24 bytes), so that nothing is kept for a walk back and a run may forget the operations
// it has finished.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/packet.h"
#include "traffic/schedule/op_window.h"

namespace icnsim {

struct CriticalPath {
  Cycle compute = 0, message = 0, other = 0;
  int64_t operations = 0;
  int64_t rankChanges = 0;  // steps from an operation of one rank to one of another
};

class CriticalPaths {
 public:
  enum class Kind : uint8_t { kCompute, kMessage, kOther };  // what an operation's own time is
  // Room for operations up to `end`; none before `before` any more.
  void growTo(int32_t end) { path_.growTo(end, Sum{}); }
  void forgetBefore(int32_t before) { path_.forgetBefore(before); }
  // `op` of rank `rank` is ready now that `before` (of rank `beforeRank`) has completed, or
  // started (`onStart`).
  void readied(int32_t op, int rank, int32_t before, int beforeRank, bool onStart);
  // `op` completed, `took` cycles after its start, of which its own time is `kind`'s.
  void completed(int32_t op, Cycle took, Kind kind);
  // Receive `op` of rank `rank` completed with the message of `send` (rank `sendRank`), which
  // it waited for: its path is the send's.
  void completedBy(int32_t op, int rank, int32_t send, int sendRank);
  // The path to `op`'s completion (`op` completed at `at`).
  CriticalPath to(int32_t op, Cycle at) const;

 private:
  // What a path carries; its other cycles are the rest of the cycle it reaches.
  struct Sum {
    Cycle compute = 0, message = 0;
    uint32_t operations = 0, rankChanges = 0;
  };
  // Per operation: started, the path to its start; completed, to its end.
  OpWindow<Sum> path_;
};

}  // namespace icnsim
