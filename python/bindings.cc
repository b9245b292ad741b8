// The C++ side of the Python package `icnsim` (python/icnsim/__init__.py): a configuration
// crosses as a file name or TOML text with a profile and `key=value` assignments, results
// come back as JSON text, and the Python side turns them into dicts and DataFrames. Runs
// release the GIL; a progress callback (and Ctrl-C) is checked every 4,096 cycles.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "cli/keys_cli.h"
#include "common/error.h"
#include "common/json_text.h"
#include "config/config.h"
#include "config/toml.h"
#include "experiment/saturation_search.h"
#include "experiment/sweep.h"
#include "sim/experiment_point.h"

namespace py = pybind11;
using namespace icnsim;

namespace {

// A configuration as Python describes it: `file`, or `text` named `name` in messages.
struct Source {
  std::string file, text, name, profile;
  std::vector<std::string> sets;

  // The file or text with its profile; with `withSets`, the values set over it too (a sweep
  // and the search apply them themselves, refusing one an axis would overwrite).
  std::shared_ptr<ConfigDocument> document(bool withSets = true) const {
    auto doc = file.empty() ? ConfigDocument::fromString(text, name) : ConfigDocument::fromFile(file);
    doc->applyProfile(profile);
    if (withSets) {
      for (const auto& set : sets) doc->applyOverride(set, "Config.set");
    }
    return doc;
  }
  std::string label() const { return file.empty() ? name : file; }
};

Source sourceOf(const py::tuple& t) {
  return {t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<std::string>(), t[3].cast<std::string>(),
          t[4].cast<std::vector<std::string>>()};
}

// A Python value as a TOML node: dicts are tables, lists of dicts arrays of tables.
toml::table tableOf(const py::dict& d, const std::string& path);

// Appends `v` to `array` as the TOML value it is.
void append(toml::array& array, const py::handle& v, const std::string& path) {
  if (py::isinstance<py::bool_>(v)) array.push_back(v.cast<bool>());
  else if (py::isinstance<py::int_>(v)) array.push_back(v.cast<int64_t>());
  else if (py::isinstance<py::float_>(v)) {
    const double x = v.cast<double>();
    if (!std::isfinite(x)) throw ConfigError(fmt::format("{}: expected a finite number, got {}", path, x));
    array.push_back(x);
  } else if (py::isinstance<py::str>(v)) array.push_back(v.cast<std::string>());
  else if (py::isinstance<py::dict>(v)) array.push_back(tableOf(v.cast<py::dict>(), path));
  else if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    toml::array items;
    size_t i = 0;
    for (const py::handle& item : v) append(items, item, fmt::format("{}[{}]", path, i++));
    array.push_back(std::move(items));
  } else {
    throw ConfigError(
        fmt::format("{}: a {} cannot be a configuration value (expected a number, string, bool, "
                    "list or dict)",
                    path, py::str(py::type::of(v).attr("__name__")).cast<std::string>()));
  }
}

toml::table tableOf(const py::dict& d, const std::string& path) {
  toml::table t;
  for (const auto& [k, v] : d) {
    if (!py::isinstance<py::str>(k)) throw ConfigError(fmt::format("{}: keys must be strings", path));
    const std::string key = k.cast<std::string>();
    toml::array one;  // the value converted once, then moved into the table as its own type
    append(one, v, path.empty() ? key : path + "." + key);
    one.get(0)->visit([&](auto&& node) { t.insert_or_assign(key, std::move(node)); });
  }
  return t;
}

std::string tomlText(const py::dict& d) {
  std::ostringstream s;
  s << tableOf(d, "");
  return s.str();
}

// Progress for the simulation loop: the user's callback under the GIL, and Ctrl-C.
Simulation::Progress progressOf(const py::object& callback) {
  return [callback](Cycle done, Cycle total) {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!callback.is_none()) callback(done, total);
  };
}

std::string run(const py::tuple& source, const py::object& progress) {
  const Source s = sourceOf(source);
  auto doc = s.document();
  doc->extractTable("sweep");  // one point: the file's base configuration
  const Simulation::Progress step = progressOf(progress);
  py::gil_scoped_release release;
  ExperimentPoint point(doc);
  return jsonText(point.run(step));
}

void validate(const py::tuple& source) {
  const Source s = sourceOf(source);
  auto doc = s.document();
  auto sweep = doc->extractTable("sweep");
  const std::vector<SweepAxis> axes = sweepAxes(*sweep);
  py::gil_scoped_release release;
  validateSweep(*doc, axes);
  ExperimentPoint check(doc);
}

void sweep(const py::tuple& source, const std::string& out, int jobs, bool resume, bool force, bool quiet) {
  const Source s = sourceOf(source);
  SweepOptions o;
  o.config = s.label();
  o.document = s.document(false);
  o.sets = s.sets;
  o.outDir = out, o.jobs = jobs, o.resume = resume, o.force = force, o.quiet = quiet;
  py::gil_scoped_release release;
  runSweep(o);
}

std::string saturation(const py::tuple& source, const std::string& key, double low, double high, double precision,
                       int seeds, int jobs) {
  const Source s = sourceOf(source);
  SaturationSearchOptions o;
  o.config = s.label();
  o.document = s.document(false);
  o.sets = s.sets;
  o.key = key, o.low = low, o.high = high, o.precision = precision, o.seeds = seeds, o.jobs = jobs, o.quiet = true;
  py::gil_scoped_release release;
  return jsonText(searchSaturation(o));
}

std::string keys(const std::string& prefix) { return keysJson(prefix).dump(); }

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "icnsim's simulator core; use the icnsim package, not this module";
  static py::exception<ConfigError> configError(m, "ConfigError", PyExc_ValueError);
  static py::exception<StuckNetworkError> stuck(m, "StuckNetworkError", PyExc_RuntimeError);
  static py::exception<ResourceError> resource(m, "ResourceError", PyExc_OSError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ConfigError& e) {
      configError(e.what());
    } catch (const StuckNetworkError& e) {
      stuck(e.what());
    } catch (const ResourceError& e) {
      resource(e.what());
    }
  });
  m.def("toml_text", &tomlText, "a dict as TOML text");
  m.def("run", &run, py::arg("source"), py::arg("progress"));
  m.def("validate", &validate, py::arg("source"));
  m.def("sweep", &sweep, py::arg("source"), py::arg("out"), py::arg("jobs"), py::arg("resume"), py::arg("force"),
        py::arg("quiet"));
  m.def("saturation", &saturation, py::arg("source"), py::arg("key"), py::arg("low"), py::arg("high"),
        py::arg("precision"), py::arg("seeds"), py::arg("jobs"));
  m.def("resolved_text", [](const py::tuple& source) { return sourceOf(source).document()->toTomlString(); });
  m.def("keys", &keys, py::arg("prefix"));
}
