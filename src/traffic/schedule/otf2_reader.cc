#include "traffic/schedule/otf2_reader.h"

#include <fmt/format.h>
#include <otf2/otf2.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "common/error.h"
#include "common/input_file.h"
#include "traffic/schedule/mpi_program.h"

namespace icnsim {
namespace {

// The library's last complaint, kept for our error message instead of printed (a trace
// without local definition files, which are optional, would print one per location).
thread_local std::string lastComplaint;

OTF2_ErrorCode keepComplaint(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                             va_list va) {
  char text[512];
  std::vsnprintf(text, sizeof text, format, va);
  lastComplaint = text;
  return code;
}

struct Group {
  OTF2_GroupType type = OTF2_GROUP_TYPE_UNKNOWN;
  bool global = false;  // members' ranks are world ranks already
  std::vector<int> members;
};

// What each collective of the trace is here; sizes as Score-P records them (a total over the
// communicator where each rank sends to every other). A v-variant's sizes are those of the
// first member to reach it, as for every collective (mpi_program.h). None: replayed as
// nothing, counted.
std::optional<CollectiveSpec> collectiveOf(OTF2_CollectiveOp op, uint32_t root, uint64_t sent, uint64_t received,
                                           size_t size) {
  const uint64_t n = std::max<size_t>(size, 1);
  auto rooted = [&](const char* name, uint64_t bytes) {
    CollectiveSpec c{name, "binomial", bytes};
    c.root = static_cast<int>(root);
    return c;
  };
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
      return CollectiveSpec{"barrier", "dissemination", 0};
    case OTF2_COLLECTIVE_OP_BCAST:
      return rooted("broadcast", received);
    case OTF2_COLLECTIVE_OP_REDUCE:
      return rooted("reduce", sent);
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
      return rooted("gather", sent);
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
      return rooted("scatter", received > 0 ? received : sent / n);
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
      return CollectiveSpec{"allreduce", "ring", sent / n};
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
      return CollectiveSpec{"allgather", "ring", received};
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
      return CollectiveSpec{"reduce_scatter", "ring", sent};
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
      return CollectiveSpec{"alltoall", "pairwise", sent / n};
    default:
      return std::nullopt;
  }
}

// The files the library will read (the anchor, the global definitions beside it and every
// file of the archive's folder) follow the input rule: regular files of bounded size, so
// that a device or FIFO in an archive neither blocks nor grows the run.
void checkArchiveFiles(const std::string& anchor, const std::string& name) {
  checkInputFile(anchor, input_kinds::kOtf2Anchor, name);
  namespace fs = std::filesystem;
  const fs::path stem = fs::path(anchor).replace_extension();
  const fs::path definitions = fs::path(stem).replace_extension(".def");
  std::error_code ec;
  if (fs::exists(fs::symlink_status(definitions, ec))) {
    checkInputFile(definitions.string(), input_kinds::kOtf2Part, name);
  }
  if (!fs::is_directory(stem, ec)) return;  // the library names what is missing
  for (const fs::directory_entry& entry : fs::directory_iterator(stem, ec)) {
    checkInputFile(entry.path().string(), input_kinds::kOtf2Part, name);
  }
}

}  // namespace

class Otf2Reading {
 public:
  Otf2Reading(const std::string& anchor, const std::string& name, Otf2Counts& counts)
      : where_(fmt::format("{} ({})", name, anchor)), counts_(counts) {
    // Checked first: the library leaks an archive it fails to open.
    checkArchiveFiles(anchor, name);
    OTF2_Error_RegisterCallback(keepComplaint, nullptr);
    lastComplaint.clear();
    reader_ = OTF2_Reader_Open(anchor.c_str());
    if (!reader_) throw ConfigError(fmt::format("{}: cannot open the OTF2 archive ({})", where_, lastComplaint));
    try {
      check(OTF2_Reader_SetSerialCollectiveCallbacks(reader_), "set up the reader");
      readDefinitions();
    } catch (...) {
      OTF2_Reader_Close(reader_);
      throw;
    }
  }
  ~Otf2Reading() {
    OTF2_Reader_Close(reader_);  // with every event reader still open
  }
  Otf2Reading(const Otf2Reading&) = delete;
  Otf2Reading& operator=(const Otf2Reading&) = delete;

  int ranks() const { return static_cast<int>(rankOf_.size()); }
  void attach(Schedule& schedule, const JobFrame& frame) {
    program_ = std::make_unique<MpiProgram>(schedule, frame, ranks(), where_);
    openEvents();
  }
  // Reads `rank`'s events (of the trace) until it has a new operation, or has no more
  // events, and none of its receives is held.
  void readFor(int rank) {
    const int32_t before = program_->frontier(rank);
    while (!done_[rank] && (program_->frontier(rank) == before || program_->held(rank) > 0)) readEvent(rank);
  }
  int32_t frontier(int rank) const { return program_->frontier(rank); }
  bool done(int rank) const { return done_[rank]; }
  // Reads every event left: what the trace cannot replay shows as its error.
  void readAll() {
    for (int rank = 0; rank < ranks(); ++rank) {
      while (!done_[rank]) readEvent(rank);
    }
  }
  bool ended() const { return ranksDone_ == ranks(); }

 private:
  void check(OTF2_ErrorCode status, const char* doing) const {
    if (status != OTF2_SUCCESS) {
      throw ConfigError(
          fmt::format("{}: cannot {}: {} ({})", where_, doing, OTF2_Error_GetDescription(status), lastComplaint));
    }
  }
  void readDefinitions();
  void openEvents();
  void readEvent(int rank);
  void openLocalFiles();
  int rankOf(OTF2_LocationRef location) const {
    const auto it = rankOf_.find(location);
    return it == rankOf_.end() ? -1 : it->second;
  }
  int worldRank(OTF2_CommRef comm, uint32_t rank) const;
  const Group& groupOf(OTF2_CommRef comm) const;  // throws for one never defined
  const std::vector<int>& membersOf(OTF2_CommRef comm, int self);
  uint64_t nanoseconds(uint64_t ticks) const {
    return static_cast<uint64_t>(static_cast<unsigned __int128>(ticks) * 1000000000u / resolution_);
  }

  // Definitions.
  static OTF2_CallbackCode onClock(void* me, uint64_t resolution, uint64_t offset, uint64_t, uint64_t);
  static OTF2_CallbackCode onRegion(void* me, OTF2_RegionRef self, OTF2_StringRef, OTF2_StringRef, OTF2_StringRef,
                                    OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t,
                                    uint32_t);
  static OTF2_CallbackCode onLocation(void* me, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t,
                                      OTF2_LocationGroupRef);
  static OTF2_CallbackCode onGroup(void* me, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                                   OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t count,
                                   const uint64_t* members);
  static OTF2_CallbackCode onComm(void* me, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef,
                                  OTF2_CommFlag);
  // Events.
  static OTF2_CallbackCode onEnter(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, OTF2_RegionRef);
  static OTF2_CallbackCode onLeave(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, OTF2_RegionRef);
  static OTF2_CallbackCode onSend(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, uint32_t, OTF2_CommRef,
                                  uint32_t, uint64_t);
  static OTF2_CallbackCode onIsend(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, uint32_t, OTF2_CommRef,
                                   uint32_t, uint64_t, uint64_t);
  static OTF2_CallbackCode onIsendComplete(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, uint64_t);
  static OTF2_CallbackCode onIrecvRequest(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, uint64_t);
  static OTF2_CallbackCode onRecv(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, uint32_t, OTF2_CommRef,
                                  uint32_t, uint64_t);
  static OTF2_CallbackCode onIrecv(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, uint32_t, OTF2_CommRef,
                                   uint32_t, uint64_t, uint64_t);
  static OTF2_CallbackCode onCancelled(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*,
                                       uint64_t request) {
    return atRank(me, l, [&](Otf2Reading& r, int rank) { r.program_->cancel(rank, request); });
  }
  static OTF2_CallbackCode onCollectiveBegin(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*) {
    eventRank(me, l);  // the collective is replayed at its end, which has its parameters
    return OTF2_CALLBACK_SUCCESS;
  }
  static OTF2_CallbackCode onCollectiveEnd(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*,
                                           OTF2_CollectiveOp, OTF2_CommRef, uint32_t, uint64_t, uint64_t);
  // The rank of an event's location, its use counted; -1 for a location of no MPI rank.
  static int eventRank(void* me, OTF2_LocationRef location);
  // Runs `body`, turning a ConfigError into a stop of the reading (kept to rethrow).
  template <typename Body>
  static OTF2_CallbackCode guarded(void* me, Body&& body);
  // Runs `body(reading, rank)`, guarded, for an event of an MPI rank's location.
  template <typename Body>
  static OTF2_CallbackCode atRank(void* me, OTF2_LocationRef location, Body&& body) {
    return guarded(me, [&](Otf2Reading& r) {
      if (const int rank = eventRank(me, location); rank >= 0) body(r, rank);
    });
  }

  std::string where_;
  Otf2Counts& counts_;
  OTF2_Reader* reader_ = nullptr;
  uint64_t resolution_ = 1000000000, offset_ = 0;
  std::unordered_set<OTF2_RegionRef> mpiRegions_;
  std::vector<OTF2_LocationRef> locations_;
  std::unordered_map<OTF2_GroupRef, Group> groups_;
  std::unordered_map<OTF2_CommRef, OTF2_GroupRef> commGroup_;
  std::unordered_map<OTF2_LocationRef, int> rankOf_;
  std::unique_ptr<MpiProgram> program_;
  std::vector<OTF2_EvtReader*> events_;  // per rank: its location's event reader
  std::vector<bool> done_;               // per rank: every event read
  int ranksDone_ = 0;
  std::vector<uint64_t> lastLeave_;  // per rank, ticks: the end of its last MPI call
  std::vector<int> depth_;           // per rank: MPI regions open
  std::vector<int> self_;            // scratch: a COMM_SELF communicator's member
  std::optional<ConfigError> error_;
};

template <typename Body>
OTF2_CallbackCode Otf2Reading::guarded(void* me, Body&& body) {
  try {
    body(*static_cast<Otf2Reading*>(me));
    return OTF2_CALLBACK_SUCCESS;
  } catch (const ConfigError& e) {
    static_cast<Otf2Reading*>(me)->error_.emplace(e.what());
    return OTF2_CALLBACK_INTERRUPT;
  }
}

OTF2_CallbackCode Otf2Reading::onClock(void* me, uint64_t resolution, uint64_t offset, uint64_t, uint64_t) {
  return guarded(me, [&](Otf2Reading& r) {
    if (resolution == 0) throw ConfigError(r.where_ + ": the clock's resolution is 0 ticks per second");
    r.resolution_ = resolution, r.offset_ = offset;
  });
}

OTF2_CallbackCode Otf2Reading::onRegion(void* me, OTF2_RegionRef self, OTF2_StringRef, OTF2_StringRef, OTF2_StringRef,
                                        OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef,
                                        uint32_t, uint32_t) {
  if (paradigm == OTF2_PARADIGM_MPI) static_cast<Otf2Reading*>(me)->mpiRegions_.insert(self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Otf2Reading::onLocation(void* me, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType, uint64_t,
                                          OTF2_LocationGroupRef) {
  static_cast<Otf2Reading*>(me)->locations_.push_back(self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Otf2Reading::onGroup(void* me, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type,
                                       OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t count,
                                       const uint64_t* members) {
  return guarded(me, [&](Otf2Reading& r) {
    if (paradigm != OTF2_PARADIGM_MPI) return;
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {  // rank i is members[i]'s location
      for (uint32_t i = 0; i < count; ++i) r.rankOf_[members[i]] = static_cast<int>(i);
      return;
    }
    Group& g = r.groups_[self];
    g.type = type, g.global = (flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS) != 0;
    for (uint32_t i = 0; i < count; ++i) g.members.push_back(static_cast<int>(members[i]));
  });
}

OTF2_CallbackCode Otf2Reading::onComm(void* me, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef,
                                      OTF2_CommFlag) {
  static_cast<Otf2Reading*>(me)->commGroup_[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

void Otf2Reading::readDefinitions() {
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader_);
  if (!defs) throw ConfigError(where_ + ": the archive has no global definitions");
  OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, onClock);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, onRegion);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, onLocation);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, onGroup);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, onComm);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader_, defs, cb, this);
  OTF2_GlobalDefReaderCallbacks_Delete(cb);
  uint64_t read = 0;
  const OTF2_ErrorCode status = OTF2_Reader_ReadAllGlobalDefinitions(reader_, defs, &read);
  if (error_) throw *error_;
  check(status, "read the global definitions");
  if (rankOf_.empty()) throw ConfigError(where_ + ": no MPI ranks: the definitions have no MPI COMM_LOCATIONS group");
  lastLeave_.assign(rankOf_.size(), offset_);
  depth_.assign(rankOf_.size(), 0);
}

// Every location's local definitions (mapping tables) and event reader.
void Otf2Reading::openLocalFiles() {
  for (const OTF2_LocationRef l : locations_) check(OTF2_Reader_SelectLocation(reader_, l), "select a location");
  const bool localDefinitions = OTF2_Reader_OpenDefFiles(reader_) == OTF2_SUCCESS;
  check(OTF2_Reader_OpenEvtFiles(reader_), "open the event files");
  for (const OTF2_LocationRef l : locations_) {
    if (localDefinitions) {
      if (OTF2_DefReader* d = OTF2_Reader_GetDefReader(reader_, l)) {
        uint64_t read = 0;
        check(OTF2_Reader_ReadAllLocalDefinitions(reader_, d, &read), "read a location's definitions");
        OTF2_Reader_CloseDefReader(reader_, d);
      }
    }
    if (!OTF2_Reader_GetEvtReader(reader_, l))
      throw ConfigError(fmt::format("{}: location {} has no events", where_, l));
  }
  if (localDefinitions) OTF2_Reader_CloseDefFiles(reader_);
}

// Each rank's location is read with its own event reader, so that a rank's events are read
// when the run needs them, whatever their times beside other ranks' (libotf2's local event
// callbacks have the global ones' arguments and the event's position, which we ignore).
template <auto Global>
struct Local;
template <typename... Args,
          OTF2_CallbackCode (*Global)(OTF2_LocationRef, OTF2_TimeStamp, void*, OTF2_AttributeList*, Args...)>
struct Local<Global> {
  static OTF2_CallbackCode call(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t, void* me, OTF2_AttributeList* a,
                                Args... args) {
    return Global(l, t, me, a, args...);
  }
};

void Otf2Reading::openEvents() {
  openLocalFiles();
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, Local<onEnter>::call);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, Local<onLeave>::call);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, Local<onSend>::call);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, Local<onIsend>::call);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, Local<onIsendComplete>::call);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, Local<onIrecvRequest>::call);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, Local<onRecv>::call);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, Local<onIrecv>::call);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, Local<onCancelled>::call);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, Local<onCollectiveBegin>::call);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, Local<onCollectiveEnd>::call);
  events_.assign(ranks(), nullptr);
  done_.assign(ranks(), false);
  for (const auto& [location, rank] : rankOf_) {
    events_[rank] = OTF2_Reader_GetEvtReader(reader_, location);
    if (!events_[rank]) {
      OTF2_EvtReaderCallbacks_Delete(cb);
      throw ConfigError(fmt::format("{}: rank {}'s location {} has no events", where_, rank, location));
    }
    OTF2_Reader_RegisterEvtCallbacks(reader_, events_[rank], cb, this);
  }
  OTF2_EvtReaderCallbacks_Delete(cb);
}

// `rank`'s next event; at its end, what the rank left open, and at the trace's, what the
// ranks together did.
void Otf2Reading::readEvent(int rank) {
  uint64_t read = 0;
  const OTF2_ErrorCode status = OTF2_Reader_ReadLocalEvents(reader_, events_[rank], 1, &read);
  if (error_) throw *error_;
  check(status, "read the events");
  counts_.events += read;
  if (read > 0) return;
  done_[rank] = true;
  program_->finishRank(rank);
  OTF2_Reader_CloseEvtReader(reader_, events_[rank]);
  events_[rank] = nullptr;
  if (++ranksDone_ < ranks()) return;
  program_->finish();
  counts_.droppedReceives += program_->droppedReceives();
  OTF2_Reader_CloseEvtFiles(reader_);
}

int Otf2Reading::eventRank(void* me, OTF2_LocationRef location) {
  Otf2Reading& r = *static_cast<Otf2Reading*>(me);
  const int rank = r.rankOf(location);
  if (rank >= 0) ++r.counts_.used;
  return rank;
}

const Group& Otf2Reading::groupOf(OTF2_CommRef comm) const {
  const auto c = commGroup_.find(comm);
  const auto g = c == commGroup_.end() ? groups_.end() : groups_.find(c->second);
  if (g == groups_.end())
    throw ConfigError(fmt::format("{}: an event names communicator {}, never defined", where_, comm));
  return g->second;
}

int Otf2Reading::worldRank(OTF2_CommRef comm, uint32_t rank) const {
  const Group& g = groupOf(comm);
  if (!g.global && rank >= g.members.size()) {
    throw ConfigError(
        fmt::format("{}: rank {} of communicator {}, which has {}", where_, rank, comm, g.members.size()));
  }
  const int world = g.global ? static_cast<int>(rank) : g.members[rank];
  if (world < 0 || world >= program_->ranks()) {
    throw ConfigError(
        fmt::format("{}: an event names rank {} of communicator {}, which is world rank {}; the trace "
                    "has {} ranks",
                    where_, rank, comm, world, program_->ranks()));
  }
  return world;
}

const std::vector<int>& Otf2Reading::membersOf(OTF2_CommRef comm, int self) {
  const Group& g = groupOf(comm);
  if (g.type == OTF2_GROUP_TYPE_COMM_SELF) {
    self_ = {self};
    return self_;
  }
  for (const int m : g.members) {
    if (m < 0 || m >= program_->ranks()) {
      throw ConfigError(
          fmt::format("{}: communicator {} has member {}; the trace has {} ranks", where_, comm, m, program_->ranks()));
    }
  }
  return g.members;
}

// Computation is the time between the end of one MPI call and the start of the next.
OTF2_CallbackCode Otf2Reading::onEnter(OTF2_LocationRef l, OTF2_TimeStamp time, void* me, OTF2_AttributeList*,
                                       OTF2_RegionRef region) {
  return guarded(me, [&](Otf2Reading& r) {
    const int rank = r.rankOf(l);
    if (rank < 0 || !r.mpiRegions_.count(region)) return;
    ++r.counts_.used;
    if (r.depth_[rank]++ > 0) return;  // an MPI call inside another
    const uint64_t start = std::max(time, r.lastLeave_[rank]);
    r.program_->compute(rank, r.nanoseconds(start - r.lastLeave_[rank]));
  });
}

OTF2_CallbackCode Otf2Reading::onLeave(OTF2_LocationRef l, OTF2_TimeStamp time, void* me, OTF2_AttributeList*,
                                       OTF2_RegionRef region) {
  Otf2Reading& r = *static_cast<Otf2Reading*>(me);
  const int rank = r.rankOf(l);
  if (rank < 0 || !r.mpiRegions_.count(region) || r.depth_[rank] == 0) return OTF2_CALLBACK_SUCCESS;
  ++r.counts_.used;
  if (--r.depth_[rank] == 0) r.lastLeave_[rank] = time;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Otf2Reading::onSend(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*,
                                      uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  return atRank(me, l,
                [&](Otf2Reading& r, int rank) { r.program_->send(rank, r.worldRank(comm, receiver), tag, length); });
}

OTF2_CallbackCode Otf2Reading::onIsend(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*,
                                       uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                       uint64_t request) {
  return atRank(me, l, [&](Otf2Reading& r, int rank) {
    r.program_->isend(rank, r.worldRank(comm, receiver), tag, length, request);
  });
}

OTF2_CallbackCode Otf2Reading::onIsendComplete(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*,
                                               uint64_t request) {
  return atRank(me, l, [&](Otf2Reading& r, int rank) { r.program_->isendComplete(rank, request); });
}

OTF2_CallbackCode Otf2Reading::onIrecvRequest(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*,
                                              uint64_t request) {
  return atRank(me, l, [&](Otf2Reading& r, int rank) { r.program_->irecvPosted(rank, request); });
}

OTF2_CallbackCode Otf2Reading::onRecv(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*,
                                      uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  return atRank(me, l,
                [&](Otf2Reading& r, int rank) { r.program_->recv(rank, r.worldRank(comm, sender), tag, length); });
}

OTF2_CallbackCode Otf2Reading::onIrecv(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*,
                                       uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                       uint64_t request) {
  return atRank(me, l, [&](Otf2Reading& r, int rank) {
    r.program_->irecvComplete(rank, r.worldRank(comm, sender), tag, length, request);
  });
}

OTF2_CallbackCode Otf2Reading::onCollectiveEnd(OTF2_LocationRef l, OTF2_TimeStamp, void* me, OTF2_AttributeList*,
                                               OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                               uint64_t received) {
  return guarded(me, [&](Otf2Reading& r) {
    const int rank = r.rankOf(l);
    if (rank < 0) return;
    const std::vector<int>& members = r.membersOf(comm, rank);
    ++r.counts_.used;
    std::optional<CollectiveSpec> c = collectiveOf(op, root, sent, received, members.size());
    if (!c) {
      ++r.counts_.unsupportedCollectives;
      return;
    }
    if (c->algorithm == "binomial" && r.groupOf(comm).global) {  // the root is a world rank: find its place
      c->root = static_cast<int>(std::find(members.begin(), members.end(), c->root) - members.begin());
    }
    if (members.size() > 1) r.program_->collective(rank, comm, members, *c);
  });
}

Otf2Feed::Otf2Feed(const std::string& anchor, const std::string& name, Otf2Counts& counts)
    : reading_(std::make_unique<Otf2Reading>(anchor, name, counts)) {}

Otf2Feed::~Otf2Feed() = default;

int Otf2Feed::ranks() const { return reading_->ranks(); }

void Otf2Feed::attach(Schedule& schedule, const JobFrame& frame) {
  rankBase_ = frame.rankBase;
  reading_->attach(schedule, frame);
}

void Otf2Feed::readFor(int rank) { reading_->readFor(rank - rankBase_); }
int32_t Otf2Feed::frontier(int rank) const { return reading_->frontier(rank - rankBase_); }
bool Otf2Feed::done(int rank) const { return reading_->done(rank - rankBase_); }
bool Otf2Feed::exhausted() const { return reading_->ended(); }
void Otf2Feed::readAll() { reading_->readAll(); }

}  // namespace icnsim
