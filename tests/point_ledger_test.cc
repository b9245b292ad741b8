// The ledger a sweep's executors share: points handed out once each in order, rows
// recorded, and the first failure (a point's or its file's) stops the handing out.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "common/error.h"
#include "experiment/point_ledger.h"

namespace {

namespace fs = std::filesystem;

struct LedgerFixture : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("icnsim_ledger_" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
};

TEST_F(LedgerFixture, HandsOutEachPointOnceAndRecordsRowsByRank) {
  std::vector<std::string> rows(4);
  rows[1] = "1,kept";
  icnsim::AppendFile csv(dir / "results.csv", true);
  icnsim::ProgressReporter progress("test", true);
  icnsim::PointLedger ledger({0, 2, 3}, rows, csv, progress, 1,
                             [](size_t i, const nlohmann::json& r) { return std::to_string(i) + "," + r.dump(); });
  EXPECT_EQ(ledger.claim(), 0u);
  EXPECT_EQ(ledger.claim(), 2u);
  ledger.finished(2, 7, 1);
  ledger.finished(0, 5, 0);
  EXPECT_EQ(ledger.claim(), 3u);
  EXPECT_EQ(ledger.claim(), std::nullopt);
  ledger.finished(3, 9, 1);
  EXPECT_EQ(rows, (std::vector<std::string>{"0,5", "1,kept", "2,7", "3,9"}));
  EXPECT_EQ(ledger.pointsByRank(), (std::vector<size_t>{1, 2}));
  EXPECT_FALSE(ledger.failure());
}

TEST_F(LedgerFixture, AFailedWriteFailsThePointAndStopsHandingOut) {
  std::vector<std::string> rows(3);
  icnsim::AppendFile csv(dir / "results.csv", true);
  icnsim::ProgressReporter progress("test", true);
  icnsim::PointLedger ledger({0, 1, 2}, rows, csv, progress, 0, [](size_t i, const nlohmann::json&) -> std::string {
    throw icnsim::ResourceError("disk full");
  });
  EXPECT_EQ(ledger.claim(), 0u);
  ledger.finished(0, 1, 0);
  ASSERT_TRUE(ledger.failure());
  EXPECT_EQ(ledger.failedPoint(), 0u);
  EXPECT_EQ(ledger.claim(), std::nullopt);
  EXPECT_TRUE(rows[0].empty());
  EXPECT_THROW(std::rethrow_exception(ledger.failure()), icnsim::ResourceError);
}

}  // namespace
