// A sweep's axes and points: the [sweep] table maps key paths to arrays of values
// ("router.lanes" = [1, 2, 4]) and may hold case axes ([[sweep.NAME]] tables, each a name
// and keys set together); every combination of one value per axis is a point, numbered
// with the last axis varying fastest.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"

namespace icnsim {

struct SweepAxis {
  std::string key;
  std::vector<std::string> values;              // TOML literals
  std::vector<std::vector<std::string>> cases;  // a case axis: assignments per value
};

// The axes of a [sweep] table (which loses its arrays of tables): first a case axis for
// each array of tables [[sweep.NAME]], whose tables are a name and keys to set together
// (e.g. a mechanism and its parameters, or its absence), then one axis per other key.
std::vector<SweepAxis> sweepAxes(ConfigDocument& sweep);
// The number of points, refused (naming `file`) beyond a million.
size_t pointCount(const std::vector<SweepAxis>& axes, const std::string& file);
// Point `index`'s value on each axis, and its configuration.
std::vector<size_t> decode(size_t index, const std::vector<SweepAxis>& axes);
std::shared_ptr<ConfigDocument> pointConfig(const ConfigDocument& base, const std::vector<SweepAxis>& axes,
                                            const std::vector<size_t>& choice);
// "sweep point 3 (router.lanes = 0, traffic.load = 0.5)": a point named by its axis values.
std::string pointName(size_t index, const std::vector<SweepAxis>& axes);
// A TOML literal as a CSV cell's text: a string's characters, a float's shortest form.
std::string cellText(const std::string& literal);

}  // namespace icnsim
