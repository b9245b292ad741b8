// The static rail allocation of Coll et al. §2 as an analytic model, so that Figs. 2 and 4
// are experiments like the others: for [model] nodes = n it reports the rails Algorithm 1
// and the optimal Algorithm 2 need, the Sperner bound, whether every ordered pair of nodes
// is connected in each allocation, Algorithm 2's matrix (up to 64 nodes), and whether the
// complete enumerations for every rail count up to the one n needs are connected — which
// covers every node count up to n, since the matrix for fewer nodes is a prefix of one.
#include <fmt/format.h>

#include "analytic/analytic_model.h"
#include "config/config.h"
#include "nic/rails/static_rails.h"

namespace icnsim {

namespace {

const IntKey kNodes = declareInt({"model", "static_rails"}, "nodes", 2, 1, 1 << 16, "the nodes to connect");

}  // namespace
namespace {

class StaticRailsModel : public AnalyticModel {
 public:
  explicit StaticRailsModel(int nodes) : nodes_(nodes) {}

  nlohmann::json evaluate() const override {
    const StaticAllocation a1 = allocateAlgorithm1(nodes_), a2 = allocateAlgorithm2(nodes_);
    nlohmann::json j = {{"type", "static_rails"},
                        {"network", fmt::format("static rail allocation of {} nodes", nodes_)},
                        {"nodes", nodes_},
                        {"rails_algorithm1", a1.rails},
                        {"rails_optimal", a2.rails},
                        {"sperner_bound", spernerBound(a2.rails)},
                        {"connected_algorithm1", firstUnconnectedPair(a1).first < 0},
                        {"connected_optimal", firstUnconnectedPair(a2).first < 0},
                        {"every_smaller_count_connected", everyEnumerationConnected(a2.rails)}};
    if (nodes_ <= 64) j["matrix_optimal"] = matrixText(a2);
    return j;
  }

 private:
  static bool everyEnumerationConnected(int rails) {
    for (int r = 1; r <= rails; ++r) {
      if (firstUnconnectedPair(enumerateBalancedVectors(r, spernerBound(r))).first >= 0) return false;
    }
    return true;
  }
  int nodes_;
};

}  // namespace

ICNSIM_REGISTER(AnalyticModel, "static_rails",
                "Coll et al. §2: rails each static allocation needs, every ordered pair checked",
                [](const AnalyticContext&, const ConfigNode& model) {
                  return std::make_unique<StaticRailsModel>(static_cast<int>(model.get(kNodes)));
                });

}  // namespace icnsim
