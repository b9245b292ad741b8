// The α-β check (docs/workloads.md): the model's formulas by hand, and every collective
// simulated on a network without contention (one router, 16 terminals) against the model
// with alpha and beta measured on that network, within 1 %.
#include <gtest/gtest.h>

#include <fstream>

#include "analytic/alpha_beta_model.h"
#include "sim/experiment_point.h"
#include "test_util.h"

namespace icnsim {
namespace {

CollectiveSpec spec(const std::string& name, const std::string& algorithm, uint64_t bytes) {
  CollectiveSpec c;
  c.name = name, c.algorithm = algorithm, c.bytes = bytes;
  return c;
}

TEST(AlphaBeta, FormulasByHand) {
  const AlphaBeta cost{10.0, 1.0, 16};  // 10 cycles a packet, 1 cycle per byte after the first packet
  EXPECT_EQ(cost.message(0), 10.0);
  EXPECT_EQ(cost.message(16), 10.0);
  EXPECT_EQ(cost.message(17), 26.0);  // two packets
  // Ring allreduce of 64 bytes on 4 ranks: 6 steps of 16 bytes.
  EXPECT_EQ(*alphaBetaTime(spec("allreduce", "ring", 64), 4, 1, cost), 60.0);
  // Halving-doubling of 64 bytes on 4 ranks: 32 then 16 bytes, and back: 2 x (26 + 10).
  EXPECT_EQ(*alphaBetaTime(spec("allreduce", "halving_doubling", 64), 4, 1, cost), 72.0);
  EXPECT_EQ(*alphaBetaTime(spec("allgather", "ring", 64), 4, 2, cost), 2 * 3 * 10.0);
  EXPECT_EQ(*alphaBetaTime(spec("broadcast", "binomial", 32), 5, 1, cost), 3 * 26.0);  // ceil(log2 5) rounds
  EXPECT_EQ(*alphaBetaTime(spec("alltoall", "pairwise", 32), 4, 1, cost), 3 * 26.0);
  EXPECT_EQ(*alphaBetaTime(spec("barrier", "dissemination", 0), 8, 1, cost), 3 * 10.0);
  EXPECT_FALSE(alphaBetaTime(spec("alltoall", "windowed", 32), 4, 1, cost).has_value());
  EXPECT_FALSE(alphaBetaTime(spec("allreduce", "double_binary_tree", 32), 4, 1, cost).has_value());
  // Hierarchical, 8 ranks in groups of 2, 64 bytes: reduce-scatter and allgather of one
  // 32-byte step each in the groups, a ring allreduce of 32 bytes on 4 ranks across them
  // (6 steps of 8 bytes).
  CollectiveSpec h = spec("allreduce", "hierarchical", 64);
  h.groupSize = 2;
  EXPECT_EQ(*alphaBetaTime(h, 8, 1, cost), 2 * 26.0 + 6 * 10.0);
}

class OneRouter : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::tempDir("alpha_beta");
    std::ofstream(dir_ / "star.graph") << "routers 1\nterminals 16\n";
  }
  // The completion cycle of a collective on the star, and with `model` the model's beside it.
  nlohmann::json run(const std::string& keys, const std::string& model = "") {
    return ExperimentPoint(test::doc(R"(
[simulation]
warmup_cycles = 0
measure_cycles = 10000000
[topology]
type = "graph"
file = ")" + (dir_ / "star.graph").string() +
                                     R"("
[routing]
type = "shortest_path"
[router]
lanes = 2
depth = 8
[traffic]
process = "schedule"
packet_length = 16
[traffic.schedule]
)" + keys + model))
        .run();
  }
  std::filesystem::path dir_;
};

TEST_F(OneRouter, EveryCollectiveTakesItsAlphaBetaTimeWithin1Percent) {
  // Measured here: a message between two ranks of 1 packet (256 bytes) and of 64 packets.
  auto pair = [&](uint64_t bytes) {
    return run("collective = \"alltoall\"\nranks = 2\nbytes = " + std::to_string(bytes) +
               "\n")["schedule"]["completion_cycle"]
        .get<double>();
  };
  const double one = pair(256), many = pair(64 * 256);
  const double alpha = one, beta = (many - one) / (63 * 256);
  const std::string model =
      "[model]\ntype = \"alpha_beta\"\nalpha = " + std::to_string(alpha) + "\nbeta = " + std::to_string(beta) + "\n";
  struct Case {
    std::string name, algorithm, keys;
  };
  for (const Case& c : std::vector<Case>{{"allreduce", "ring", ""},
                                         {"allreduce", "halving_doubling", ""},
                                         {"allreduce", "hierarchical", "group_size = 4\n"},
                                         {"reduce_scatter", "ring", ""},
                                         {"allgather", "ring", ""},
                                         {"broadcast", "binomial", ""},
                                         {"reduce", "binomial", "root = 5\n"},
                                         {"gather", "binomial", ""},
                                         {"scatter", "binomial", "root = 3\n"},
                                         {"alltoall", "pairwise", ""},
                                         {"barrier", "dissemination", ""}}) {
    SCOPED_TRACE(c.name + " " + c.algorithm);
    const nlohmann::json j = run(
        "collective = \"" + c.name + "\"\nalgorithm = \"" + c.algorithm + "\"\nranks = 16\nbytes = 65536\n" + c.keys,
        model);
    const double simulated = j["schedule"]["completion_cycle"].get<double>();
    const double predicted = j["model"]["completion_cycle"].get<double>();
    EXPECT_NEAR(simulated / predicted, 1.0, 0.01) << simulated << " against " << predicted;
  }
}

TEST_F(OneRouter, WithSeveralJobsTheModelIsOfTheJobItNames) {
  const std::string jobs =
      "[[traffic.schedule.job]]\nname = \"a\"\ncollective = \"barrier\"\nranks = 4\n"
      "[[traffic.schedule.job]]\nname = \"b\"\ncollective = \"allgather\"\nranks = 8\nbytes = 800\n";
  const std::string model = "[model]\ntype = \"alpha_beta\"\nalpha = 10\nbeta = 1\n";
  EXPECT_EQ(run(jobs, model)["model"]["completion_cycle"], 2 * 10.0);  // the first job: 2 rounds
  // Job b: 7 steps of 100 bytes, one 256-byte packet each.
  EXPECT_EQ(run(jobs, model + "job = \"b\"\n")["model"]["completion_cycle"], 7 * 10.0);
  const std::string error = test::configErrorOf([&] { run(jobs, model + "job = \"c\"\n"); });
  EXPECT_NE(error.find("model.job: "), std::string::npos) << error;
  EXPECT_NE(error.find("no [[traffic.schedule.job]] is named 'c'"), std::string::npos) << error;
}

}  // namespace
}  // namespace icnsim
