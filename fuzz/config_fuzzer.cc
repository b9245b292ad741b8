// libFuzzer target over the configuration loader and `validate` (issue 10): any byte string
// is read as a configuration file, its sweep axes are taken apart, and every point is built
// as `icnsim validate` builds it. A configuration error or a refusal for lack of resources
// is the expected answer to bad input; anything else (an internal error, another
// exception, a crash, a sanitizer report, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/error.h"
#include "experiment/sweep.h"
#include "sim/experiment_point.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace icnsim;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto doc = ConfigDocument::fromString(text, "fuzz.toml");
    // Keep each input cheap: refuse networks estimated above a quarter gigabyte.
    doc->applyOverride("simulation.memory_limit_gb=0.25", "the fuzzer");
    // ... and deadlock checks beyond a few million resources sampled, not walked whole.
    doc->applyOverride("simulation.deadlock_check_limit=2e6", "the fuzzer");
    doc->applyProfile("");
    auto sweep = doc->extractTable("sweep");
    ExperimentPoint point(doc);
    validateSweep(*doc, sweepAxes(*sweep));
  } catch (const ConfigError&) {
  } catch (const ResourceError&) {
  }
  return 0;
}
