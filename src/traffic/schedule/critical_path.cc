#include "traffic/schedule/critical_path.h"

namespace icnsim {

void CriticalPaths::readied(int32_t op, int rank, int32_t before, int beforeRank, bool onStart) {
  Sum s = path_[before];
  s.operations += onStart;  // through a start, `before` counts but its own time does not
  s.rankChanges += rank != beforeRank;
  path_[op] = s;
}

void CriticalPaths::completed(int32_t op, Cycle took, Kind kind) {
  Sum& s = path_[op];
  ++s.operations;
  if (kind == Kind::kCompute) s.compute += took;
  if (kind == Kind::kMessage) s.message += took;
}

void CriticalPaths::completedBy(int32_t op, int rank, int32_t send, int sendRank) {
  Sum s = path_[send];
  ++s.operations;
  s.rankChanges += rank != sendRank;
  path_[op] = s;
}

CriticalPath CriticalPaths::to(int32_t op, Cycle at) const {
  const Sum& s = path_[op];
  return {s.compute, s.message, at - s.compute - s.message, s.operations, s.rankChanges};
}

}  // namespace icnsim
