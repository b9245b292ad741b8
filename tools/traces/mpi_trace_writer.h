// Writes small OTF2 traces of MPI programs with libotf2's writer: the project's sample trace
// (write_sample.cc) and the traces of tests/otf2_test.cc. Events are written per rank in
// time order; close() writes the definitions (clock in nanoseconds, one process per rank,
// MPI_COMM_WORLD and any communicator added) and the archive.
#pragma once
#include <otf2/otf2.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace icnsim::otf2 {

class MpiTraceWriter {
 public:
  // Regions an event may be inside: the MPI calls, and one that is not MPI.
  enum Region : OTF2_RegionRef {
    kSend,
    kRecv,
    kIsend,
    kIrecv,
    kWait,
    kAllreduce,
    kBarrier,
    kBcast,
    kAlltoall,
    kGather,
    kUserCode,
    kRegions
  };

  MpiTraceWriter(const std::string& directory, const std::string& name, int ranks) : ranks_(ranks) {
    archive_ = OTF2_Archive_Open(directory.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive_) throw std::runtime_error("cannot create the OTF2 archive " + directory + "/" + name);
    static const OTF2_FlushCallbacks kFlush = {
        [](void*, OTF2_FileType, OTF2_LocationRef, void*, bool) -> OTF2_FlushType { return OTF2_FLUSH; }, nullptr};
    OTF2_Archive_SetFlushCallbacks(archive_, &kFlush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive_);
    OTF2_Archive_OpenEvtFiles(archive_);
    for (int r = 0; r < ranks; ++r) writers_.push_back(OTF2_Archive_GetEvtWriter(archive_, r));
    communicators_.push_back({});
    for (int r = 0; r < ranks; ++r) communicators_[0].push_back(r);
  }

  // A communicator of these world ranks (MPI_COMM_WORLD is 0).
  OTF2_CommRef addCommunicator(const std::vector<int>& members) {
    communicators_.push_back(members);
    return static_cast<OTF2_CommRef>(communicators_.size() - 1);
  }

  void enter(int rank, uint64_t t, Region region) { check(OTF2_EvtWriter_Enter(at(rank, t), nullptr, t, region)); }
  void leave(int rank, uint64_t t, Region region) { check(OTF2_EvtWriter_Leave(at(rank, t), nullptr, t, region)); }
  void send(int rank, uint64_t t, uint32_t to, uint32_t tag, uint64_t bytes, OTF2_CommRef comm = 0) {
    check(OTF2_EvtWriter_MpiSend(at(rank, t), nullptr, t, to, comm, tag, bytes));
  }
  void recv(int rank, uint64_t t, uint32_t from, uint32_t tag, uint64_t bytes, OTF2_CommRef comm = 0) {
    check(OTF2_EvtWriter_MpiRecv(at(rank, t), nullptr, t, from, comm, tag, bytes));
  }
  void isend(int rank, uint64_t t, uint32_t to, uint32_t tag, uint64_t bytes, uint64_t request) {
    check(OTF2_EvtWriter_MpiIsend(at(rank, t), nullptr, t, to, 0, tag, bytes, request));
  }
  void isendComplete(int rank, uint64_t t, uint64_t request) {
    check(OTF2_EvtWriter_MpiIsendComplete(at(rank, t), nullptr, t, request));
  }
  void irecvRequest(int rank, uint64_t t, uint64_t request) {
    check(OTF2_EvtWriter_MpiIrecvRequest(at(rank, t), nullptr, t, request));
  }
  void cancel(int rank, uint64_t t, uint64_t request) {
    check(OTF2_EvtWriter_MpiRequestCancelled(at(rank, t), nullptr, t, request));
  }
  void irecv(int rank, uint64_t t, uint32_t from, uint32_t tag, uint64_t bytes, uint64_t request) {
    check(OTF2_EvtWriter_MpiIrecv(at(rank, t), nullptr, t, from, 0, tag, bytes, request));
  }
  // A collective call from `t` to `end`, sizes as Score-P records them.
  void collective(int rank, uint64_t t, uint64_t end, Region region, OTF2_CollectiveOp op, uint64_t sent,
                  uint64_t received, OTF2_CommRef comm = 0, uint32_t root = OTF2_COLLECTIVE_ROOT_NONE) {
    enter(rank, t, region);
    check(OTF2_EvtWriter_MpiCollectiveBegin(at(rank, t), nullptr, t));
    check(OTF2_EvtWriter_MpiCollectiveEnd(at(rank, end), nullptr, end, op, comm, root, sent, received));
    leave(rank, end, region);
  }

  void close() {
    std::vector<uint64_t> events(ranks_);
    for (int r = 0; r < ranks_; ++r) {
      OTF2_EvtWriter_GetNumberOfEvents(writers_[r], &events[r]);
      OTF2_Archive_CloseEvtWriter(archive_, writers_[r]);
    }
    OTF2_Archive_CloseEvtFiles(archive_);
    OTF2_Archive_OpenDefFiles(archive_);  // empty local definitions, as tracers write them
    for (int r = 0; r < ranks_; ++r) OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, r));
    OTF2_Archive_CloseDefFiles(archive_);
    writeDefinitions(events);
    OTF2_Archive_Close(archive_);
  }

 private:
  OTF2_EvtWriter* at(int rank, uint64_t t) {
    end_ = std::max(end_, t);
    return writers_.at(rank);
  }
  static void check(OTF2_ErrorCode status) {
    if (status != OTF2_SUCCESS) throw std::runtime_error(OTF2_Error_GetDescription(status));
  }
  void writeDefinitions(const std::vector<uint64_t>& events) {
    OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(archive_);
    check(OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000, 0, end_ + 1, OTF2_UNDEFINED_TIMESTAMP));
    const char* names[] = {"MPI_Send",    "MPI_Recv",  "MPI_Isend",    "MPI_Irecv",  "MPI_Wait", "MPI_Allreduce",
                           "MPI_Barrier", "MPI_Bcast", "MPI_Alltoall", "MPI_Gather", "user_code"};
    uint32_t next = 0;
    auto string = [&](const std::string& s) {
      check(OTF2_GlobalDefWriter_WriteString(d, next, s.c_str()));
      return next++;
    };
    const uint32_t empty = string("");
    for (OTF2_RegionRef r = 0; r < kRegions; ++r) {
      const uint32_t name = string(names[r]);
      const OTF2_Paradigm paradigm = r == kUserCode ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI;
      check(OTF2_GlobalDefWriter_WriteRegion(d, r, name, name, empty, OTF2_REGION_ROLE_FUNCTION, paradigm,
                                             OTF2_REGION_FLAG_NONE, empty, 0, 0));
    }
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, string("machine"), string("machine"),
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    std::vector<uint64_t> world;
    for (int r = 0; r < ranks_; ++r) {
      const uint32_t name = string("rank " + std::to_string(r));
      check(OTF2_GlobalDefWriter_WriteLocationGroup(d, r, name, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                    OTF2_UNDEFINED_LOCATION_GROUP));
      check(OTF2_GlobalDefWriter_WriteLocation(d, r, name, OTF2_LOCATION_TYPE_CPU_THREAD, events[r], r));
      world.push_back(r);
    }
    check(OTF2_GlobalDefWriter_WriteGroup(d, 0, string("world locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, ranks_, world.data()));
    for (size_t c = 0; c < communicators_.size(); ++c) {
      const std::vector<uint64_t> members(communicators_[c].begin(), communicators_[c].end());
      const uint32_t name = string("communicator " + std::to_string(c));
      check(OTF2_GlobalDefWriter_WriteGroup(d, c + 1, name, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                            OTF2_GROUP_FLAG_NONE, members.size(), members.data()));
      check(OTF2_GlobalDefWriter_WriteComm(d, c, name, c + 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
    }
    OTF2_Archive_CloseGlobalDefWriter(archive_, d);
  }

  int ranks_;
  OTF2_Archive* archive_ = nullptr;
  std::vector<OTF2_EvtWriter*> writers_;
  std::vector<std::vector<int>> communicators_;
  uint64_t end_ = 0;
};

}  // namespace icnsim::otf2
