// The processes one network is split over (an mpirun job), as a network model sees them:
// its rank, how many there are, and one collective call that gives every rank what each
// rank sent it in a cycle. Defined below the network models so that they reach the MPI
// layer (sim/mpi_ranks.h) only through it; tests give it an in-process implementation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace icnsim {

class RankExchange {
 public:
  virtual ~RankExchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Collective: rank r's toEach[d] goes to rank d (toEach has size() entries; its own entry
  // comes back to it). `fromAll` receives what each rank sent this one, in rank order, rank
  // s's from offsets[s] to offsets[s + 1]: a rank gets only what concerns it.
  virtual void allToAll(const std::vector<std::vector<std::byte>>& toEach, std::vector<std::byte>& fromAll,
                        std::vector<size_t>& offsets) const = 0;
  // Collective: every rank's `mine` to every rank (allToAll with the same bytes for each;
  // for the rare exchanges where every rank needs everything).
  void allGather(const std::vector<std::byte>& mine, std::vector<std::byte>& all, std::vector<size_t>& offsets) const {
    allToAll(std::vector<std::vector<std::byte>>(size(), mine), all, offsets);
  }
  // Collective: every rank's `values` (the same number on each) combined element by element
  // with `op` (a sum, a maximum), in rank order.
  template <typename Op>
  std::vector<uint64_t> combine(const std::vector<uint64_t>& values, Op op) const {
    std::vector<std::byte> mine(values.size() * sizeof(uint64_t)), all;
    if (!values.empty()) std::memcpy(mine.data(), values.data(), mine.size());
    std::vector<size_t> offsets;
    allGather(mine, all, offsets);
    std::vector<uint64_t> result(values.size()), theirs(values.size());
    for (int r = 0; r < size(); ++r) {
      if (!theirs.empty()) std::memcpy(theirs.data(), all.data() + offsets[r], mine.size());
      for (size_t i = 0; i < values.size(); ++i) result[i] = r == 0 ? theirs[i] : op(result[i], theirs[i]);
    }
    return result;
  }
};

}  // namespace icnsim
