// Dally's analytic model of a k-ary n-fly with l single-flit lanes per physical channel
// (Virtual-Channel Flow Control, §IV, eqs. 2-10), under uniform random traffic, Poisson
// sources and fixed-length packets. Time is in packet times (t0 = L/W = 1) inside the
// model; latency() converts to flit cycles.
//
// Channel stages are numbered from the destination: stage 0 is the channel into the
// destination (always served in t0), stage n is the source's injection channel, so an
// n-stage fly has n + 1 channel stages. With this numbering the model gives the paper's
// quoted l = 1 throughputs (0.39 for 4 stages, 0.14 for 14); docs/models/dally.md records
// why and the other readings of the printed indices.
#pragma once
#include <vector>

namespace icnsim {

struct VcFlyModelParams {
  int stages = 8;              // n: switch stages of the fly
  int lanes = 1;               // l: single-flit virtual channels per physical channel
  double packetLength = 20.0;  // L/W: flits per packet (one flit per cycle per channel)
  double hopDelay = 1.0;       // T_d: cycles for a flit to cross one switch
};

struct VcFlyStage {
  std::vector<double> serviceTime;  // t_{i,j}, j = 0..l (packet times)
  std::vector<double> occupancy;    // p_{i,j}, j = 0..l
  double waiting = 0;               // x_i: mean time to acquire a lane at this stage
};

struct VcFlyEvaluation {
  double load = 0;                  // lambda: packets per packet time per source
  bool stable = false;              // a steady state exists (every queue below saturation)
  std::vector<VcFlyStage> stages;   // index i = stage i (0 = destination side)
  double multiplexing = 0;          // j_avg (eq. 9), lanes sharing the first channel
  double totalWaiting = 0;          // w_n (eq. 3)
  double sourceUtilisation = 0;     // rho = lambda (t0 + x_n)
  double sourceQueueing = 0;        // M/D/1 waiting time in the source (packet times)
  double latency = 0;               // T (eq. 8) in cycles; only meaningful when stable
};

class VcFlyModel {
 public:
  explicit VcFlyModel(VcFlyModelParams params);  // throws std::invalid_argument on bad input

  VcFlyEvaluation evaluate(double load) const;
  // lambda_max: the largest load with a steady state (eq. 10), as a fraction of capacity.
  double saturationThroughput() const;
  // Latency at zero load: L/W + T_d n.
  double zeroLoadLatency() const;
  const VcFlyModelParams& params() const { return p_; }

 private:
  VcFlyModelParams p_;
};

}  // namespace icnsim
