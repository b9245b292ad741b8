"""The Python API (python/icnsim) against the command line and by hand-checked expectations.

Run by ctest (PythonApi) as `/usr/bin/python3 -m pytest python/tests` with
PYTHONPATH=build/python; ICNSIM_BINARY names the command-line binary (default build/icnsim).
"""
import json
import os
import subprocess
import threading

import pytest

import icnsim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("ICNSIM_BINARY", os.path.join(ROOT, "build", "icnsim"))

# A 4x4 mesh (16 terminals, capacity one flit per terminal per cycle) at load 0.2.
MESH = {
    "topology": {"type": "mesh", "k": 4, "n": 2},
    "routing": {"type": "dimension_order"},
    "router": {"lanes": 2, "depth": 4},
    "simulation": {"warmup_cycles": 500, "measure_cycles": 3000},
    "traffic": {"load": 0.2, "packet_length": 4},
}


def test_a_dict_runs_and_is_below_saturation_at_a_light_load():
    result = icnsim.run(icnsim.Config.from_dict(MESH))
    assert result["terminals"] == 16
    assert result["accepted"] == pytest.approx(result["offered"], rel=0.05)
    assert result["offered"] == pytest.approx(0.2, rel=0.1)
    assert result["saturation"]["below"] is True
    # Uniform traffic on a 4x4 mesh: the mean distance over every pair (self included) is 2.5.
    assert result["average_hops"] == pytest.approx(2.5, abs=0.15)


def test_a_file_gives_what_the_command_line_gives(tmp_path):
    path = tmp_path / "mesh.toml"
    path.write_text(icnsim.Config.from_dict(MESH).toml())
    out = tmp_path / "cli.json"
    subprocess.run([BINARY, "run", str(path), "-q", "--set", "traffic.load=0.3", "--json", str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    ours = icnsim.run(icnsim.Config(path).set({"traffic.load": 0.3}))
    cli = json.loads(out.read_text())
    assert ours == cli


def test_a_profile_and_values_set_over_a_committed_experiment():
    config = icnsim.Config(os.path.join(ROOT, "experiments/dragonfly/routing.toml"), profile="quick")
    config = config.set({"traffic.load": 0.1, "routing.type": "dragonfly_valiant",
                         "simulation.measure_cycles": 500, "simulation.warmup_cycles": 200})
    result = icnsim.run(config)
    assert result["terminals"] == 72  # the quick profile: p = h = 2, a = 4, 9 groups
    assert result["config"]["routing.type"] == '"dragonfly_valiant"'
    assert result["config"]["traffic.load"] == "0.1"
    resolved = config.toml()  # what the simulator reads: profile and values applied, [profile] gone
    assert "load = 0.1" in resolved and "profile" not in resolved and "p = 2" in resolved


def test_errors_are_python_exceptions_naming_the_key():
    bad = dict(MESH, router={"lanes": 2, "depht": 4})
    with pytest.raises(icnsim.ConfigError, match="router.depht.*depth"):
        icnsim.run(icnsim.Config.from_dict(bad))
    with pytest.raises(ValueError, match=r"router.lanes.*expected an integer"):
        icnsim.run(icnsim.Config.from_dict(MESH).set({"router.lanes": "two"}))
    with pytest.raises(icnsim.ConfigError, match=r"traffic.load: a set cannot be a configuration value"):
        icnsim.Config.from_dict(MESH).set({"traffic.load": {0.1}})
    with pytest.raises(icnsim.ConfigError, match="beyond a 64-bit integer"):
        icnsim.Config.from_dict(MESH).set({"simulation.seed": 2**64})
    assert "description = 'réseau ✓'" in icnsim.Config.from_dict(MESH).set(
        {"simulation.description": "réseau ✓"}).toml()
    with pytest.raises(icnsim.ConfigError, match=r"simulation.seed: a NoneType"):
        icnsim.Config.from_dict({"simulation": {"seed": None}})
    with pytest.raises(icnsim.ConfigError, match="no such file|cannot open|not found|does not exist"):
        icnsim.run(icnsim.Config("no/such/file.toml"))
    assert icnsim.ConfigError.__module__ == "icnsim"


def test_threads_and_a_progress_callback_change_no_result():
    config = icnsim.Config.from_dict(MESH).set({"simulation.measure_cycles": 9000})
    calls = []
    one = icnsim.run(config, progress=lambda done, total: calls.append((done, total)))
    two = icnsim.run(config, threads=2)
    assert len(calls) >= 3  # every 4,096 cycles and at the end
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert calls[-1][0] == calls[-1][1] == one["cycles"]
    one["config"].pop("simulation.threads", None)
    two["config"].pop("simulation.threads", None)
    assert one == two


def test_an_exception_in_the_progress_callback_stops_the_run():
    class Stop(Exception):
        pass

    calls = []

    def stop(done, total):
        calls.append(done)
        if done > 0:
            raise Stop()

    config = icnsim.Config.from_dict(MESH).set({"simulation.measure_cycles": 100000})
    for threads in (1, 2):
        calls.clear()
        with pytest.raises(Stop):
            icnsim.run(config, threads=threads, progress=stop)
        assert calls == [0, 4096]  # stopped at the first call after cycle 0, not at the run's end


def test_runs_on_python_threads_overlap_and_agree():
    config = icnsim.Config.from_dict(MESH)
    results = [None, None]

    def work(i):
        results[i] = icnsim.run(config)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == results[1] == icnsim.run(config)


def test_a_sweep_gives_a_dataframe_and_resumes(tmp_path):
    config = icnsim.Config.from_dict(MESH)
    out = tmp_path / "sweep"
    swept = icnsim.sweep(config, out, axes={"traffic.load": [0.1, 0.2, 0.9]}, jobs=2, progress=False)
    frame = swept.frame()
    assert list(frame["traffic.load"]) == [0.1, 0.2, 0.9]
    assert list(frame["below_saturation"]) == [True, True, False]  # a 4x4 mesh saturates near 0.5 under UR
    assert len(swept.results()) == 3 and swept.results()[2]["point"] == 2
    with pytest.raises(icnsim.ConfigError, match="--resume|--force"):
        icnsim.sweep(config, out, axes={"traffic.load": [0.1, 0.3]}, progress=False)
    with pytest.raises(icnsim.ConfigError, match="the sweep's axis 'traffic.load' sets this key"):
        icnsim.sweep(config.set({"traffic.load": 0.3}), tmp_path / "clash", axes={"traffic.load": [0.1]},
                     progress=False)
    again = icnsim.sweep(config, out, axes={"traffic.load": [0.1, 0.2, 0.9]}, resume=True, progress=False)
    assert again.frame().equals(frame)
    table = icnsim.frame(swept)
    assert list(table["config.traffic.load"]) == [0.1, 0.2, 0.9]
    assert "latency.mean" in table and "saturation.below" in table


def test_a_files_own_sweep_runs_with_its_cases(tmp_path):
    config = icnsim.Config.from_dict(dict(MESH, sweep={"traffic.load": [0.1], "split": [
        {"name": "xy"}, {"name": "adaptive", "routing.type": "minimal"}]}))
    frame = icnsim.sweep(config, tmp_path / "cases", progress=False).frame()
    assert list(frame["split"]) == ["xy", "adaptive"]
    one = icnsim.run(config)  # run leaves the [sweep] out: the base point
    assert one["config"]["routing.type"] == '"dimension_order"'


def test_link_statistics_are_numpy_arrays_that_conserve_flits():
    import numpy
    # Samples of 1,000 cycles; the measurement window is cycles 1,000 to 4,000: samples 2 to 4.
    result = icnsim.run(icnsim.Config.from_dict(MESH).set(
        {"simulation.link_stats_interval": 1000, "simulation.warmup_cycles": 1000}))
    links = icnsim.link_stats(result)
    flits = links.metrics["flits"]
    assert isinstance(flits, numpy.ndarray)
    assert flits.shape == (len(links.sample_ends), len(links.links["kind"]))
    kind = links.links["kind"]
    assert (kind == "injection").sum() == 16 and (kind == "ejection").sum() == 16
    # The flits the ejection links carried in the window are the accepted load, exactly.
    assert list(links.sample_ends[:4]) == [1000, 2000, 3000, 4000]
    ejected = flits[1:4, kind == "ejection"].sum()
    assert ejected / (3000 * 16) == pytest.approx(result["accepted"], rel=1e-12)
    # No flit is ejected that was not injected; the rest are still in the buffers at the end.
    in_flight = flits[:, kind == "injection"].sum() - flits[:, kind == "ejection"].sum()
    assert 0 <= in_flight <= 16 * 5 * 2 * 4 + 64  # routers x ports x lanes x depth, and on links
    with pytest.raises(icnsim.ConfigError, match="link_stats_interval"):
        icnsim.link_stats(icnsim.run(icnsim.Config.from_dict(MESH)))


def test_keys_come_with_their_documentation():
    lanes = icnsim.keys("router.lanes")
    assert len(lanes) == 1 and lanes[0]["path"] == "router.lanes" and lanes[0]["doc"]
    everything = icnsim.keys()
    assert len(everything) > 200
    assert any(k["path"] == "topology.type" and any(p["name"] == "dragonfly" for p in k["parts"])
               for k in everything)
    with pytest.raises(icnsim.ConfigError, match="did you mean"):
        icnsim.keys("router.lane")


def test_validate_builds_every_point_without_running():
    icnsim.validate(icnsim.Config.from_dict(dict(MESH, sweep={"router.lanes": [1, 2]})))
    with pytest.raises(icnsim.ConfigError, match="router.lanes"):
        icnsim.validate(icnsim.Config.from_dict(dict(MESH, sweep={"router.lanes": [1, -2]})))


def test_the_saturation_search_finds_a_hot_spots_knee_by_hand():
    # 16 terminals send to terminal 0, whose ejection channel takes one flit a cycle: the
    # 0.95 rule's knee lies between 1/16 = 0.0625 and 0.0625 / 0.95 = 0.0658.
    hot = icnsim.Config.from_dict(MESH).set({
        "traffic.pattern": {"type": "hotspot", "nodes": 0}, "router.lanes": 4, "router.depth": 8,
        "simulation.measure_cycles": 20000, "simulation.warmup_cycles": 1000})
    search = icnsim.saturation(hot, high=0.2, precision=0.002, seeds=2, jobs=2)
    assert 0.0625 - 0.003 < search["saturation"]["mean"] < 0.0658 + 0.003
    assert [s["outcome"] for s in search["seeds"]] == ["found", "found"]
    with pytest.raises(icnsim.ConfigError, match="expected 0 <= low < high"):
        icnsim.saturation(hot, low=0.5, high=0.2)
