// Merlin and Schweitzer's structured buffer pool, counted by hops still to go, shared by
// the central-buffer switch and SPIDER's host memories: a pool of B buffers admits a
// packet with j hops to go only if, counting it, at most B - i of its buffers are held by
// packets with i or more hops to go, for every i in 1..j. One buffer thus stays available
// to each class closer to its destination, so by induction on the hops to go no cyclic
// wait for buffers can form (with minimal routes: each hop brings a packet one closer).
#pragma once

namespace icnsim {

// `heldWithAtLeast(i)`: buffers held by packets with i or more hops to go.
template <typename HeldWithAtLeast>
bool hopClassesAdmit(int buffers, int toGo, HeldWithAtLeast&& heldWithAtLeast) {
  for (int i = 1; i <= toGo; ++i) {
    if (heldWithAtLeast(i) + 1 > buffers - i) return false;
  }
  return true;
}

}  // namespace icnsim
