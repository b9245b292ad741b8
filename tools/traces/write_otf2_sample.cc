// Writes the sample OTF2 trace of experiments/workloads/ (docs/workloads.md): 8 MPI ranks,
// three iterations of computation (20 to 27 us, uneven over the ranks), a ring exchange of
// 4 KiB (MPI_Isend to the next rank, MPI_Recv from the one before, MPI_Wait) and an
// MPI_Allreduce of 64 KiB, then an MPI_Barrier. Built as icnsim_otf2_sample.
//   icnsim_otf2_sample DIRECTORY NAME [ITERATIONS]   (writes DIRECTORY/NAME.otf2 and its files;
//   ITERATIONS: 3 unless given, for longer traces of the same program)
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "traces/mpi_trace_writer.h"

using icnsim::otf2::MpiTraceWriter;

int main(int argc, char** argv) {
  const int iterations = argc == 4 ? std::atoi(argv[3]) : 3;
  if ((argc != 3 && argc != 4) || iterations < 1) {
    std::fprintf(stderr, "usage: %s DIRECTORY NAME [ITERATIONS >= 1]\n", argv[0]);
    return 2;
  }
  try {
    constexpr int kRanks = 8;
    constexpr uint64_t kRing = 4096, kVector = 65536;
    MpiTraceWriter w(argv[1], argv[2], kRanks);
    for (int r = 0; r < kRanks; ++r) {
      uint64_t t = 0;
      for (int i = 0; i < iterations; ++i) {
        const uint64_t work = 20000 + 1000 * r;
        w.enter(r, t, MpiTraceWriter::kUserCode);
        w.leave(r, t += work, MpiTraceWriter::kUserCode);
        w.enter(r, t, MpiTraceWriter::kIsend);
        w.isend(r, t + 100, (r + 1) % kRanks, 1, kRing, i);
        w.leave(r, t += 200, MpiTraceWriter::kIsend);
        w.enter(r, t, MpiTraceWriter::kRecv);
        w.recv(r, t + 3000, (r + kRanks - 1) % kRanks, 1, kRing);
        w.leave(r, t += 3100, MpiTraceWriter::kRecv);
        w.enter(r, t, MpiTraceWriter::kWait);
        w.isendComplete(r, t + 50, i);
        w.leave(r, t += 100, MpiTraceWriter::kWait);
        w.collective(r, t, t + 40000, MpiTraceWriter::kAllreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, kRanks * kVector,
                     kRanks * kVector);
        t += 40000;
      }
      w.collective(r, t, t + 2000, MpiTraceWriter::kBarrier, OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    }
    w.close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "icnsim_otf2_sample: %s\n", e.what());
    return 1;
  }
  return 0;
}
