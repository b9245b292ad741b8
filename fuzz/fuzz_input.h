// Shared by the reader fuzzers: each input is written to a file of this process's own, which
// the reader under test then opens by name, as it opens a user's file. A configuration error
// is the expected answer to bad input; anything else (an internal error, another exception,
// a crash, a sanitizer report, a hang) is a finding.
#pragma once
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.h"
#include "config/config.h"
#include "sim/experiment_point.h"

namespace icnsim::fuzz {

// This process's scratch folder (created once).
inline const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("icnsim_fuzz_" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

// Writes `size` bytes to `path` (replacing it).
inline void writeBytes(const std::filesystem::path& path, const uint8_t* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

// Writes the input to scratch()/name and returns the path.
inline std::string inputFile(const uint8_t* data, size_t size, const std::string& name) {
  const std::filesystem::path path = scratch() / name;
  writeBytes(path, data, size);
  return path.string();
}

// Builds the configuration `toml` as `icnsim validate` builds a point; a configuration error
// or a refusal for lack of resources is the expected answer to bad input.
inline void buildAsValidateDoes(const std::string& toml) {
  try {
    auto doc = ConfigDocument::fromString(toml, "fuzz.toml");
    doc->applyProfile("");
    ExperimentPoint point(doc);
  } catch (const ConfigError&) {
  } catch (const ResourceError&) {
  }
}

}  // namespace icnsim::fuzz
