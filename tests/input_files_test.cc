// Every file the program reads follows one rule (common/input_file.h): a regular file of
// bounded size, refused before it is opened otherwise, naming the key that asked for it.
// Each reader is tried with a device, a FIFO, a directory and a symbolic link to a device.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "common/error.h"
#include "common/input_file.h"
#include "test_util.h"

using icnsim::test::runCommand;
using icnsim::test::tempDir;
namespace fs = std::filesystem;

namespace {

std::string experiment(const std::string& name) {
  return (fs::path(ICNSIM_SOURCE_DIR) / "experiments" / name).string();
}

struct Reader {
  std::string config;  // an experiment that reads the file
  std::string key;     // the key that names it
};

const Reader kReaders[] = {
    {"workloads/goal_ring.toml", "traffic.schedule.file"},
    {"workloads/otf2_mesh.toml", "traffic.schedule.file"},
    {"workloads/netrace_mesh.toml", "traffic.netrace.file"},
    {"topologies/graph_jellyfish.toml", "topology.file"},
};

// Each run is killed after 20 s: a reader that blocked on a FIFO or grew on /dev/zero fails
// the test instead of hanging the suite.
void expectRefused(const std::string& args, const std::string& key, const std::string& says) {
  const auto r = runCommand(args, 20);
  EXPECT_EQ(r.exitCode, 2) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(key), std::string::npos) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(says), std::string::npos) << args << "\n" << r.output;
}

TEST(InputFiles, EveryReaderRefusesDevicesFifosAndDirectories) {
  const fs::path d = tempDir("input_files");
  const fs::path fifo = d / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", d / "zero_link");
  for (const Reader& r : kReaders) {
    for (const std::string& path : {std::string("/dev/zero"), fifo.string(), (d / "zero_link").string()}) {
      expectRefused("validate " + experiment(r.config) + " --set " + r.key + "=" + path, r.key,
                    "is not a regular file");
    }
    expectRefused("validate " + experiment(r.config) + " --set " + r.key + "=" + d.string(), r.key, "is a directory");
  }
}

TEST(InputFiles, APlacementFileFollowsTheRule) {
  const std::string keys = (fs::path(ICNSIM_SOURCE_DIR) / "tests" / "keys" / "schedule_placement_file.toml").string();
  expectRefused("validate " + keys + " --set traffic.schedule.placement_file=/dev/zero",
                "traffic.schedule.placement_file", "is not a regular file");
}

TEST(InputFiles, AnOtf2ArchiveWithADeviceInsideIsRefused) {
  const fs::path d = tempDir("input_files_otf2");
  fs::copy(experiment("workloads/otf2_ring8"), d / "otf2_ring8", fs::copy_options::recursive);
  fs::remove(d / "otf2_ring8" / "ring8" / "3.evt");
  fs::create_symlink("/dev/zero", d / "otf2_ring8" / "ring8" / "3.evt");
  expectRefused("validate " + experiment("workloads/otf2_mesh.toml") +
                    " --set traffic.schedule.file=" + (d / "otf2_ring8" / "ring8.otf2").string(),
                "traffic.schedule.file", "3.evt: is not a regular file");
}

TEST(InputFiles, SizeBoundsAreNamed) {
  const fs::path d = tempDir("input_files_bound");
  const fs::path big = d / "big.txt";
  std::ofstream(big) << std::string(2048, 'x');
  const icnsim::InputKind small{"test file", 1024};
  try {
    icnsim::checkInputFile(big.string(), small, "where: key");
    FAIL() << "a file over its bound was accepted";
  } catch (const icnsim::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("where: key: " + big.string() +
                                         ": is 2048 bytes; a test file may have at most 1024 bytes"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(icnsim::readInputFile(big.string(), icnsim::InputKind{"test file", 4096}, "").size(), 2048u);
  EXPECT_FALSE(icnsim::isReadableInputFile("/dev/zero", small));
  EXPECT_FALSE(icnsim::isReadableInputFile((d / "missing").string(), small));
}

// Issue 50, defect 8: bytes of a binary file quoted in an error are printed escaped.
TEST(InputFiles, BinaryBytesAreEscapedInMessages) {
  const fs::path d = tempDir("input_files_binary");
  std::ofstream(d / "bin.goal", std::ios::binary) << "num_ranks 2\nrank 0 {\n\x01\x02\xff\x7f: calc 5\nzz\x1b[31m x\n";
  const auto r = runCommand("validate " + experiment("workloads/goal_ring.toml") +
                            " --set traffic.schedule.file=" + (d / "bin.goal").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("\\x1b[31m"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
}

// Issue 50, defect 3: the operations file on a full disk is an error naming the path.
TEST(InputFiles, AnOperationsFileThatCannotBeWrittenIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const auto r = runCommand("run -q " + experiment("workloads/goal_ring.toml") +
                            " --set traffic.schedule.operations_file=/dev/full --json /dev/null");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("/dev/full"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("No space left"), std::string::npos) << r.output;
}

}  // namespace
