// The processes an `mpirun` started (ranks) and the messages between them. A process not
// started by mpirun, or a build without MPI, is one rank (0) and sends nothing. Only the
// thread that created MpiRanks may call it (MPI_THREAD_FUNNELED).
#pragma once
#include <string>
#include <vector>

#include "kernel/rank_exchange.h"

namespace icnsim {

class MpiRanks : public RankExchange {
 public:
  struct Message {
    int source = 0;
    int tag = 0;
    std::string payload;
  };

  // Starts MPI when the environment says mpirun started this process (OpenMPI, MPICH and
  // PMIx set their own variables); a build without MPI then refuses to run as several ranks.
  MpiRanks(int& argc, char**& argv);
  ~MpiRanks();
  MpiRanks(const MpiRanks&) = delete;
  MpiRanks& operator=(const MpiRanks&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void allToAll(const std::vector<std::vector<std::byte>>& toEach, std::vector<std::byte>& fromAll,
                std::vector<size_t>& offsets) const override;

  void send(int destination, int tag, const std::string& payload) const;
  // A message from any rank if one has arrived; false at once otherwise.
  bool poll(Message& message) const;
  // Waits for the next message from `source`.
  Message receive(int source) const;
  // Ends every rank of the job with `exitCode` (a rank that fails alone would leave the
  // others waiting for it).
  [[noreturn]] void abort(int exitCode) const;

  // Every rank, at its end: whether any rank failed, and how. A rank that failed waits `seconds` for the others to
  // arrive (a configuration refused is refused by all; a rank that failed alone may have left them waiting for it); a
  // rank that did not waits as long as it takes. Waits on a communicator of its own, so that no collective under way is
  // taken for the wait.
  struct Outcome {
    enum Kind { kNoneFailed, kThisRankAlone, kFailedAlike, kFailedDifferently } kind = kNoneFailed;
    int firstFailed = 0;  // the lowest rank that failed (when they arrived)
  };
  Outcome agreeOnOutcome(bool failed, const std::string& message, double seconds) const;

 private:
  int rank_ = 0, size_ = 1;
  bool started_ = false;
  int failureCommunicator_ = 0;  // agreeOnOutcome's MPI_Comm, as its Fortran handle (an int: no mpi.h here)
  mutable std::vector<std::byte> sendBuffer_;  // allToAll's messages end to end, kept between cycles
};

}  // namespace icnsim
