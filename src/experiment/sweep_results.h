// Where a sweep's results go (DIR given by --out): DIR/config.toml, a JSON record per point
// (DIR/points/<n>.json, the source of truth) and DIR/results.csv, a row per point. An
// interrupted sweep keeps its finished points; --resume verifies and keeps them.
#pragma once
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiment/sweep_axes.h"

namespace icnsim {

struct SweepOptions;

// results.csv's header and point `index`'s row, from its record.
std::string csvHeader(const std::vector<SweepAxis>& axes);
std::string csvRow(size_t index, const std::vector<SweepAxis>& axes, const nlohmann::json& record);
// DIR/points/<index>.json.
std::filesystem::path pointFile(const std::filesystem::path& out, size_t index);
// A point's record read from its file (through the bounded reader of common/input_file.h);
// null when it is missing, too large, torn or not a JSON object.
nlohmann::json readPointRecord(const std::filesystem::path& file);
// The finished points an interrupted sweep left behind, verified against this sweep's
// configuration; their rows go into `rows` (one per point). Returns how many were kept.
size_t keepFinishedPoints(const ConfigDocument& base, const std::vector<SweepAxis>& axes,
                          const std::filesystem::path& out, std::vector<std::string>& rows);
// Never a directory where the sweep would overwrite its own input, nor one holding another
// sweep's points unless resumed or forced; temporary files a killed sweep left are removed.
void prepareOutputDirectory(const SweepOptions& o, const std::vector<std::string>& inputs);

}  // namespace icnsim
