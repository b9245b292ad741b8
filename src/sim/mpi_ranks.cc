#include "sim/mpi_ranks.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <thread>

#include "common/error.h"

#ifdef ICNSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace icnsim {

namespace {

bool startedByMpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(name)) return true;
  }
  return false;
}

}  // namespace

#ifdef ICNSIM_HAVE_MPI

MpiRanks::MpiRanks(int& argc, char**& argv) {
  if (!startedByMpirun()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  started_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm failures;
  MPI_Comm_dup(MPI_COMM_WORLD, &failures);
  failureCommunicator_ = MPI_Comm_c2f(failures);
}

MpiRanks::~MpiRanks() {
  if (!started_) return;
  MPI_Comm failures = MPI_Comm_f2c(failureCommunicator_);
  MPI_Comm_free(&failures);
  MPI_Finalize();
}

void MpiRanks::send(int destination, int tag, const std::string& payload) const {
  MPI_Send(payload.data(), static_cast<int>(payload.size()), MPI_CHAR, destination, tag, MPI_COMM_WORLD);
}

namespace {

MpiRanks::Message receiveProbed(const MPI_Status& probed) {
  int count = 0;
  MPI_Get_count(&probed, MPI_CHAR, &count);
  MpiRanks::Message m{probed.MPI_SOURCE, probed.MPI_TAG, std::string(static_cast<size_t>(count), '\0')};
  MPI_Recv(m.payload.data(), count, MPI_CHAR, m.source, m.tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return m;
}

}  // namespace

bool MpiRanks::poll(Message& message) const {
  if (size_ == 1) return false;
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
  if (arrived) message = receiveProbed(status);
  return arrived != 0;
}

MpiRanks::Message MpiRanks::receive(int source) const {
  MPI_Status status;
  MPI_Probe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
  return receiveProbed(status);
}

void MpiRanks::allToAll(const std::vector<std::vector<std::byte>>& toEach, std::vector<std::byte>& fromAll,
                        std::vector<size_t>& offsets) const {
  // Two collectives: the sizes each rank sends each rank, then the bytes (counts are ints in MPI).
  if (static_cast<int>(toEach.size()) != size_) throw InternalError("allToAll: one message per rank expected");
  std::vector<int> sendCounts(size_), sendDisplacements(size_), receiveCounts(size_), receiveDisplacements(size_);
  sendBuffer_.clear();
  for (int r = 0; r < size_; ++r) {
    sendCounts[r] = static_cast<int>(toEach[r].size());
    sendDisplacements[r] = static_cast<int>(sendBuffer_.size());
    sendBuffer_.insert(sendBuffer_.end(), toEach[r].begin(), toEach[r].end());
  }
  MPI_Alltoall(sendCounts.data(), 1, MPI_INT, receiveCounts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  offsets.assign(size_ + 1, 0);
  for (int r = 0; r < size_; ++r) {
    receiveDisplacements[r] = static_cast<int>(offsets[r]);
    offsets[r + 1] = offsets[r] + static_cast<size_t>(receiveCounts[r]);
  }
  fromAll.resize(offsets.back());
  MPI_Alltoallv(sendBuffer_.data(), sendCounts.data(), sendDisplacements.data(), MPI_BYTE, fromAll.data(),
                receiveCounts.data(), receiveDisplacements.data(), MPI_BYTE, MPI_COMM_WORLD);
}

void MpiRanks::abort(int exitCode) const {
  MPI_Abort(MPI_COMM_WORLD, exitCode);
  std::_Exit(exitCode);
}

MpiRanks::Outcome MpiRanks::agreeOnOutcome(bool failed, const std::string& message, double seconds) const {
  MPI_Comm outcomes = MPI_Comm_f2c(failureCommunicator_);
  MPI_Request everyRank;
  MPI_Ibarrier(outcomes, &everyRank);
  int done = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (MPI_Test(&everyRank, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done) {
    if (failed && std::chrono::steady_clock::now() > deadline) return {Outcome::kThisRankAlone, rank_};
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // not spinning on a core another rank may need
  }
  // Over the ranks that failed: the lowest and highest hash of their messages, and the lowest rank.
  const uint64_t mine = std::hash<std::string>{}(message);
  uint64_t lowest = failed ? mine : UINT64_MAX, highest = failed ? mine : 0;
  int first = failed ? rank_ : size_;
  MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_UINT64_T, MPI_MIN, outcomes);
  MPI_Allreduce(MPI_IN_PLACE, &highest, 1, MPI_UINT64_T, MPI_MAX, outcomes);
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, outcomes);
  if (first == size_) return {};
  return {lowest == highest ? Outcome::kFailedAlike : Outcome::kFailedDifferently, first};
}

#else  // a build without MPI: one rank

MpiRanks::MpiRanks(int&, char**&) {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (!size) size = std::getenv("PMI_SIZE");
  if (size && std::atoi(size) > 1) {
    throw ConfigError(
        "this icnsim was built without MPI, so mpirun would run the same work in every rank: "
        "install libopenmpi-dev (scripts/install-deps.sh does) and rebuild");
  }
}

MpiRanks::~MpiRanks() = default;

void MpiRanks::send(int, int, const std::string&) const {
  throw InternalError("a message to another rank in a build without MPI");
}

bool MpiRanks::poll(Message&) const { return false; }

MpiRanks::Message MpiRanks::receive(int) const {
  throw InternalError("a message from another rank in a build without MPI");
}

void MpiRanks::allToAll(const std::vector<std::vector<std::byte>>& toEach, std::vector<std::byte>& fromAll,
                        std::vector<size_t>& offsets) const {
  fromAll = toEach.at(0);  // one rank
  offsets = {0, fromAll.size()};
}

void MpiRanks::abort(int exitCode) const { std::_Exit(exitCode); }

MpiRanks::Outcome MpiRanks::agreeOnOutcome(bool failed, const std::string&, double) const {
  return {failed ? Outcome::kFailedAlike : Outcome::kNoneFailed, 0};
}

#endif

}  // namespace icnsim
