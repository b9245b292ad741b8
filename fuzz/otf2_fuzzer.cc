// libFuzzer target over the OTF2 reader: an input's first byte picks one file of the
// committed sample archive (experiments/workloads/otf2_ring8: the anchor, the global
// definitions, a location's definitions or its events) and the rest replaces that file's
// content; the archive is then read whole as a trace job's feed reads it during a run.
#include <array>

#include "common/error.h"
#include "fuzz_input.h"
#include "traffic/schedule/otf2_reader.h"
#include "traffic/schedule/schedule.h"

namespace {

namespace fs = std::filesystem;

const std::array<const char*, 6> kFiles{"ring8.otf2",  "ring8.def",   "ring8/0.def",
                                        "ring8/0.evt", "ring8/3.evt", "ring8/7.def"};

// The sample archive, copied once into the scratch folder.
const fs::path& archive() {
  static const fs::path dir = [] {
    const fs::path d = icnsim::fuzz::scratch() / "otf2_ring8";
    fs::remove_all(d);
    fs::copy(fs::path(ICNSIM_SOURCE_DIR) / "experiments" / "workloads" / "otf2_ring8", d, fs::copy_options::recursive);
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace icnsim;
  if (size == 0) return 0;
  const fs::path file = archive() / kFiles[data[0] % kFiles.size()];
  const fs::path original =
      fs::path(ICNSIM_SOURCE_DIR) / "experiments" / "workloads" / "otf2_ring8" / kFiles[data[0] % kFiles.size()];
  fuzz::writeBytes(file, data + 1, size - 1);
  try {
    Otf2Counts counts;
    Otf2Feed feed((archive() / "ring8.otf2").string(), "fuzz", counts);
    Schedule schedule(0);
    schedule.addRanks(feed.ranks());
    feed.attach(schedule, {});
    feed.readAll();
  } catch (const ConfigError&) {
  }
  fs::copy_file(original, file, fs::copy_options::overwrite_existing);
  return 0;
}
