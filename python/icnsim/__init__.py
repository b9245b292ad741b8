"""icnsim from Python: build a configuration from a file or a dict, run it or sweep it, and
read the results as dicts, pandas DataFrames and numpy arrays (docs/python.md).

    import icnsim
    config = icnsim.Config("experiments/dragonfly/uniform.toml", profile="quick")
    result = icnsim.run(config.set({"traffic.load": 0.3}))
    print(result["accepted"], result["latency"]["mean"], result["saturation"]["below"])

Errors in a configuration raise icnsim.ConfigError (a ValueError) whose message names the
file or dict, the key and the value expected; a network that stops moving raises
icnsim.StuckNetworkError. Runs release the GIL; Ctrl-C stops `run` within 4,096 cycles (a
sweep or a search stops at Ctrl-C only when it ends: rerun a sweep with resume=True).
"""
import json
import math
import numbers
import os
import sys

from . import _core
from ._core import ConfigError, ResourceError, StuckNetworkError

__all__ = ["Config", "ConfigError", "StuckNetworkError", "ResourceError", "run", "sweep", "Sweep", "frame",
           "link_stats", "LinkStats", "keys", "validate", "saturation"]


def _literal(value, key):
    """A Python value as the TOML literal of a `key=value` assignment."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":  # numpy's too
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        if not -2**63 <= int(value) < 2**63:
            raise ConfigError(f"{key}: {value} is beyond a 64-bit integer")
        return str(int(value))
    if isinstance(value, numbers.Real):
        if not math.isfinite(value):
            raise ConfigError(f"{key}: expected a finite number, got {value}")
        return repr(float(value))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_literal(v, key) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(str(k))} = {_literal(v, key)}" for k, v in value.items()) + " }"
    raise ConfigError(f"{key}: a {type(value).__name__} cannot be a configuration value "
                      "(expected a number, string, bool, list or dict)")


class Config:
    """A configuration: a TOML file (with its `extends`), or a dict, with a profile and values
    set over it. Immutable: `set` returns a new Config."""

    def __init__(self, file=None, *, profile="", values=None, _text="", _name=""):
        if file is None and not _text:
            raise ConfigError("Config: give a file name, or use Config.from_dict / Config.from_toml")
        self._file = os.fspath(file) if file is not None else ""
        self._text, self._name, self._profile = _text, _name, profile or ""
        self._sets = []
        if values:
            self._sets = Config._assignments(values)

    @classmethod
    def from_dict(cls, tables, *, name="<dict>", profile=""):
        """A configuration from nested dicts: {"topology": {"type": "mesh", "k": 4}, ...}; a
        list of dicts is an array of tables ([[traffic.group]]). Relative file names in it
        are relative to the current directory."""
        if not isinstance(tables, dict):
            raise ConfigError(f"{name}: expected a dict of tables, got a {type(tables).__name__}")
        return cls(None, profile=profile, _text=_core.toml_text(tables), _name=name)

    @classmethod
    def from_toml(cls, text, *, name="<string>", profile=""):
        """A configuration from TOML text."""
        return cls(None, profile=profile, _text=text or "\n", _name=name)

    @staticmethod
    def _assignments(values):
        if not isinstance(values, dict):
            raise ConfigError(f"Config.set: expected a dict of key paths to values, got a {type(values).__name__}")
        return [f"{key}={_literal(value, key)}" for key, value in values.items()]

    def set(self, values=None, **keys):
        """A copy with values set: set({"traffic.load": 0.3, "routing.type": "ugal"}); keywords
        set top-level keys only, so key paths go in the dict."""
        copy = Config.__new__(Config)
        copy.__dict__.update(self.__dict__)
        copy._sets = self._sets + Config._assignments(dict(values or {}, **keys))
        return copy

    def sweep_over(self, axes):
        """A copy whose [sweep] is `axes`: {"traffic.load": [0.1, 0.2], "routing.type": [...]}."""
        if not isinstance(axes, dict) or not axes:
            raise ConfigError("Config.sweep_over: expected a dict of key paths to lists of values")
        for key, values in axes.items():
            if not isinstance(values, (list, tuple)) or not values:
                raise ConfigError(f"sweep.{key}: expected a non-empty list of values")
        copy = self.set()
        copy._sets.append("sweep=" + _literal(dict(axes), "sweep"))
        return copy

    def _source(self):
        return (self._file, self._text, self._name, self._profile, list(self._sets))

    def toml(self):
        """The configuration as the simulator reads it: bases, profile and values applied."""
        return _core.resolved_text(self._source())

    def __repr__(self):
        what = self._file or self._name
        extra = f", profile={self._profile!r}" if self._profile else ""
        return f"Config({what!r}{extra}, {len(self._sets)} values set)"


def _as_config(config):
    if isinstance(config, Config):
        return config
    if isinstance(config, dict):
        return Config.from_dict(config)
    if isinstance(config, (str, os.PathLike)):
        return Config(config)
    raise ConfigError(f"expected a Config, a dict or a file name, got a {type(config).__name__}")


class _ProgressLine:
    """The default progress: one line on stderr, redrawn at most twice a second."""

    def __init__(self, label):
        import time
        self._time, self._label, self._last = time.monotonic, label, 0.0

    def __call__(self, done, total):
        now = self._time()
        if now - self._last < 0.5 and done < total:
            return
        self._last = now
        of = f" of {total:,}" if total > 0 else ""
        sys.stderr.write(f"\r{self._label}: {done:,}{of} cycles")
        if total > 0 and done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _progress(progress, label):
    if progress is True:
        return _ProgressLine(label)
    if progress in (None, False) or callable(progress):
        return progress or None
    raise ConfigError(f"progress: expected True, False or a function (done, total), got {progress!r}")


def run(config, *, threads=None, seed=None, progress=False):
    """Runs one point (a file's [sweep] is left out) and returns its result as a dict: the
    JSON `icnsim run` writes. threads: simulation.threads; progress: True for a line on
    stderr, or a function called with (cycles done, cycles in all; 0 when not known)."""
    config = _as_config(config)
    values = {}
    if threads is not None:
        values["simulation.threads"] = threads
    if seed is not None:
        values["simulation.seed"] = seed
    if values:
        config = config.set(values)
    return json.loads(_core.run(config._source(), _progress(progress, "run")))


def validate(config):
    """Builds every point of the configuration without running it; raises ConfigError."""
    _core.validate(_as_config(config)._source())


class Sweep:
    """A finished sweep's directory: results.csv (one row per point) and points/*.json."""

    def __init__(self, out):
        self.out = os.fspath(out)

    def frame(self):
        """results.csv as a pandas DataFrame (pandas: Debian's python3-pandas)."""
        return _pandas().read_csv(os.path.join(self.out, "results.csv"))

    def results(self):
        """Every point's result dict (with its "point" index and "status"), in point order."""
        points = os.path.join(self.out, "points")
        records = []
        names = [n for n in os.listdir(points) if n.endswith(".json") and n[:-5].isdigit()]
        for name in sorted(names, key=lambda n: int(n[:-5])):  # 100000 after 99999
            with open(os.path.join(points, name)) as f:
                records.append(json.load(f))
        return records

    def __repr__(self):
        return f"Sweep({self.out!r})"


def sweep(config, out, *, axes=None, jobs=1, resume=False, force=False, progress=True):
    """Runs every point of the configuration's [sweep] (or of `axes`, which replaces it) on
    `jobs` threads into the directory `out`, as `icnsim sweep` does; resume=True keeps the
    points already finished there. Returns a Sweep (its .frame() is a DataFrame)."""
    config = _as_config(config)
    if axes is not None:
        config = config.sweep_over(axes)
    if not isinstance(jobs, int) or jobs < 1:
        raise ConfigError(f"jobs: expected a positive number of threads, got {jobs!r}")
    _core.sweep(config._source(), os.fspath(out), jobs, bool(resume), bool(force), not progress)
    return Sweep(out)


def saturation(config, *, key="traffic.load", low=0.0, high=1.0, precision=0.01, seeds=3, jobs=1):
    """Finds the load at which the configuration saturates, as `icnsim saturation` does:
    per seed, bisection on `key` between `low` and `high` by the 0.95 rule until the bracket
    is `precision` wide. Returns a dict: "saturation" {mean, half_width_95, seeds} when every
    seed found a bracket, and "seeds" with each seed's bracket and runs."""
    for name, value in (("low", low), ("high", high), ("precision", precision)):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise ConfigError(f"{name}: expected a finite number, got {value!r}")
    for name, value in (("seeds", seeds), ("jobs", jobs)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(f"{name}: expected a positive integer, got {value!r}")
    source = _as_config(config)._source()
    return json.loads(_core.saturation(source, key, float(low), float(high), float(precision), seeds, jobs))


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("icnsim's DataFrames need pandas: run Debian's /usr/bin/python3, where "
                          "python3-pandas is installed (scripts/install-deps.sh)") from e
    return pandas


def _flat(result, prefix=""):
    """A result's numbers and strings as one flat dict ("latency.mean": ...), lists left out."""
    out = {}
    for key, value in result.items():
        name = prefix + key
        if isinstance(value, dict):
            if key != "config":
                out.update(_flat(value, name + "."))
        elif not isinstance(value, list):
            out[name] = value
    return out


def frame(results):
    """Results (dicts from run, or a Sweep) as a DataFrame: one row each, the nested numbers
    as dotted columns ("latency.mean", "saturation.below"); lists such as histograms are left
    out. Each row also has the values of the keys the configuration set ("config.traffic.load")."""
    if isinstance(results, Sweep):
        results = results.results()
    if isinstance(results, dict):
        results = [results]
    rows = []
    for r in results:
        row = _flat(r)
        for key, text in r.get("config", {}).items():
            try:
                row["config." + key] = json.loads(text)
            except ValueError:
                row["config." + key] = text
        rows.append(row)
    return _pandas().DataFrame(rows)


class LinkStats:
    """One network's link statistics (simulation.link_stats_interval) as numpy arrays.

    links: per link, arrays "kind", "src_router", "src_port", "dst_router", "dst_port",
    "terminal", "lanes"; sample_ends: the cycle each sample ends; metrics: name -> array of
    shape (samples, links) (or lanes, with simulation.link_stats_lanes)."""

    def __init__(self, series):
        import numpy
        self.interval = series["interval"]
        self.per_lane = series["per_lane"]
        self.links = {k: numpy.asarray(v) for k, v in series["links"].items()}
        self.routers = series.get("routers", {})
        self.sample_ends = numpy.asarray(series["sample_ends"], dtype=numpy.int64)
        skip = {"interval", "per_lane", "links", "routers", "sample_ends"}
        self.metrics = {k: numpy.asarray(v, dtype=numpy.int64) for k, v in series.items() if k not in skip}

    def __repr__(self):
        return (f"LinkStats({len(self.links.get('kind', []))} links, {len(self.sample_ends)} samples, "
                f"metrics {sorted(self.metrics)})")


def link_stats(result, network=0):
    """The link statistics of `result` (a run's dict) for one network (rail)."""
    series = result.get("link_stats")
    if not series:
        raise ConfigError("this result has no link statistics: set simulation.link_stats_interval "
                          "(e.g. config.set({'simulation.link_stats_interval': 1000}))")
    if not 0 <= network < len(series):
        raise ConfigError(f"network {network}: the result has networks 0 to {len(series) - 1}")
    return LinkStats(series[network])


def keys(prefix=""):
    """The configuration keys under `prefix` ("router", "traffic.load"; all when empty): a
    list of dicts with path, type, default, range, doc, and for a part's type its parts."""
    return json.loads(_core.keys(prefix))

for _error in (ConfigError, ResourceError, StuckNetworkError):
    _error.__module__ = "icnsim"  # shown as icnsim.ConfigError, where the user catches it
