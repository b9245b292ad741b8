#!/usr/bin/env python3
"""Tests of the report tooling on small synthetic sweeps whose verdicts are known: the
statistics over seeds (seed_stats.py), the SPIDER report's Fig. 3 claims, the scaling
report's exchange model. Run by ctest
(CMakeLists.txt) and directly, from the source tree: python3 -m tools.report_tools_test."""
import contextlib
import csv
import io
import json
import os
import sys
import tempfile
import unittest

from tools import plot_sweep
from tools.report import lib as report_lib
from tools.report import seed_stats
from tools.report import verdict as vd
from tools.dally import report as dally_report
from tools.dragonfly import beyond as dragonfly_beyond
from tools.dragonfly import booksim_reference
from tools.dragonfly import booksim_setup as dragonfly_booksim_setup
from tools.dragonfly import links as dragonfly_links
from tools.dragonfly import report as dragonfly_report
from tools.dragonfly import routing_claims as dragonfly_routing_claims
from tools.faults import adaptive_study
from tools.faults import diagnosis_study
from tools.faults import reply_ack_study
from tools.faults import plot_recovery
from tools.faults import rail_study
from tools.fedx import backpressure as fedx_backpressure
from tools.fedx import report as fedx_report
from tools.dragonfly import investigations as dragonfly_investigations
from tools import perf_booksim
from tools.fedx import investigations as fedx_investigations
from tools.multirail import investigations as multirail_investigations
from tools.nifdy import bound as nifdy_bound
from tools.nifdy import investigations as nifdy_investigations
from tools.nifdy import common as nifdy_common
from tools.nifdy import report as nifdy_report
from tools import scaling_report
from tools.links import plot_links
from tools.router import booksim_crosscheck as crosscheck
from tools.spider import report as spider_report
from tools.report.lib import Report
from tools.workloads import contention

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LOAD, SEED = seed_stats.LOAD, seed_stats.SEED


def write_sweep(out, experiment, points):
    """points: [(axes dict, result JSON or {"error": ...})] -> OUT/EXPERIMENT/results.csv and
    points/NNNNN.json, as `icnsim sweep` writes them."""
    directory = os.path.join(out, experiment)
    os.makedirs(os.path.join(directory, "points"))
    axes = list(points[0][0])
    with open(os.path.join(directory, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["point"] + axes + ["status"])
        for i, (where, j) in enumerate(points):
            w.writerow([i] + [where[a] for a in axes] + ["error" if "error" in j else "ok"])
            with open(os.path.join(directory, "points", f"{i:05d}.json"), "w") as p:
                json.dump(j, p)


def printed_table(experiment, points, table):
    """What `table` prints for a sweep of `points` written as OUT/EXPERIMENT."""
    with tempfile.TemporaryDirectory() as out:
        write_sweep(out, experiment, points)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            table(os.path.join(out, experiment))
    return printed.getvalue()


def result(offered, accepted, latency, host=0.0):
    return {"offered": offered, "accepted": accepted, "accepted_fraction": accepted, "drained": True,
            "latency": {"mean": latency}, "router_counters": {"host_arrivals": {"mean": host}}}


class SeedStats(unittest.TestCase):
    def test_value_is_the_mean_with_a_student_t_interval(self):
        v = seed_stats.Value([1.0, 2.0, 3.0])
        self.assertAlmostEqual(v.mean, 2.0)
        self.assertAlmostEqual(v.half, 4.303 / 3 ** 0.5, places=6)  # t(2) * s / sqrt(n), s = 1
        self.assertIsNone(seed_stats.Value([5.0]).half)

    def test_a_sensitivity_grid_is_selected_at_one_value_and_joined_with_another(self):
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "main", [({"case": c, LOAD: 0.5, SEED: 1}, result(0.5, 0.5, lat))
                                      for c, lat in (("a", 10), ("b", 20))])
            write_sweep(out, "sens", [({"case": "b", "t": t, LOAD: 0.5, SEED: 1}, result(0.5, 0.5, lat))
                                      for t, lat in ((8, 30), (32, 40))])
            main = seed_stats.Grid(out, "main", ["case", LOAD])
            sens = seed_stats.Grid(out, "sens", ["case", "t", LOAD])
            view = sens.select(t=32).union(main.select(drop=False, case="a"))
            self.assertEqual(view.keys, ["case", LOAD])
            latency = lambda j: j["latency"]["mean"]  # noqa: E731
            self.assertEqual(view.value(latency, case="a", **{LOAD: 0.5}).mean, 10)
            self.assertEqual(view.value(latency, case="b", **{LOAD: 0.5}).mean, 40)

    def test_a_point_is_below_saturation_only_at_095_of_offered_and_never_after_an_error(self):
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "x", [
                ({"case": "a", LOAD: 0.5, SEED: 1}, result(0.5, 0.48, 10)),
                ({"case": "a", LOAD: 0.5, SEED: 2}, result(0.5, 0.47, 10)),   # 0.94 of offered
                ({"case": "b", LOAD: 0.5, SEED: 1}, result(0.5, 0.5, 10)),
                ({"case": "b", LOAD: 0.5, SEED: 2}, {"error": "no flit moved", "config": {}}),
                ({"case": "c", LOAD: 0.5, SEED: 1}, result(0.5, 0.5, 10)),
            ])
            grid = seed_stats.Grid(out, "x", ["case", LOAD])
            self.assertFalse(grid.unsaturated(case="a", **{LOAD: 0.5}))
            self.assertFalse(grid.unsaturated(case="b", **{LOAD: 0.5}))
            self.assertEqual(list(grid.errors(case="b", **{LOAD: 0.5})), [2])
            self.assertTrue(grid.unsaturated(case="c", **{LOAD: 0.5}))
            self.assertIsNone(grid.below(lambda j: j["latency"]["mean"], case="a", **{LOAD: 0.5}))


    def test_knee_is_the_last_load_before_the_first_saturated_one(self):
        with tempfile.TemporaryDirectory() as out:
            saturated = {(1, 0.7), (2, 0.5)}  # seed 2 recovers at 0.7: its knee stays 0.3
            write_sweep(out, "x", [({LOAD: x, SEED: s}, result(x, 0.8 * x if (s, x) in saturated else x, 10))
                                   for s in (1, 2) for x in (0.3, 0.5, 0.7)])
            grid = seed_stats.Grid(out, "x", [LOAD])
            self.assertEqual(grid.knee().samples, [0.5, 0.3])
            self.assertEqual(grid.knee_text(), "0.40 ± 1.27")

    def test_a_mean_on_a_threshold_computed_from_the_grid_is_on_it(self):
        step = 0.45 - 0.4   # 0.04999999999999999
        self.assertTrue(seed_stats.between(seed_stats.Value([0.55, 0.55]), 0.5 - step, 0.5 + step)[0])
        self.assertTrue(seed_stats.against(seed_stats.Value([0.85]), 0.9 - step)[0])
        self.assertFalse(seed_stats.between(seed_stats.Value([0.56]), 0.5 - step, 0.5 + step)[0])

    def test_a_threshold_inside_the_interval_is_flagged(self):
        v = seed_stats.Value([0.9, 1.1])
        self.assertEqual(seed_stats.against(v, 0.95), (True, seed_stats.FLIPS))
        self.assertEqual(seed_stats.against(seed_stats.Value([0.9, 0.91]), 0.5), (True, ""))
        self.assertEqual(seed_stats.between(seed_stats.Value([0.9, 0.91]), 0.0, 0.5), (False, ""))
        self.assertFalse(seed_stats.against(v, 1.5, higher=True)[0])


class Verdicts(unittest.TestCase):
    """The verdict engine on values whose outcome is known by hand."""

    def test_the_interval_decides_and_a_straddling_one_is_inconclusive(self):
        v = seed_stats.Value([1.0, 1.2, 1.1])  # mean 1.1, half-width 4.303 * 0.1 / sqrt(3) = 0.248
        self.assertEqual(vd.decide(v, 0.8).outcome, vd.HOLDS)       # low 0.852 >= 0.8
        self.assertEqual(vd.decide(v, 1.4).outcome, vd.FAILS)       # high 1.348 < 1.4
        self.assertEqual(vd.decide(v, 1.0).outcome, vd.INCONCLUSIVE)
        self.assertEqual(vd.decide(v, 1.4, higher=False).outcome, vd.HOLDS)
        self.assertEqual(vd.decide(v, 0.8, higher=False).outcome, vd.FAILS)

    def test_one_seed_is_judged_on_its_mean_and_says_so(self):
        one = seed_stats.Value([2.0])
        self.assertEqual(vd.decide(one, 1.0).outcome, vd.HOLDS)
        self.assertIn("one seed", vd.decide(one, 1.0).note)
        self.assertEqual(vd.decide(one, 1.0, exact=True).note, "")
        self.assertEqual(vd.decide(one, 3.0).outcome, vd.FAILS)

    def test_between_needs_the_whole_interval_inside(self):
        v = seed_stats.Value([1.0, 1.2, 1.1])
        self.assertEqual(vd.decide_between(v, 0.5, 1.5).outcome, vd.HOLDS)
        self.assertEqual(vd.decide_between(v, 1.0, 1.5).outcome, vd.INCONCLUSIVE)
        self.assertEqual(vd.decide_between(v, 1.5, 2.0).outcome, vd.FAILS)

    def test_paired_differences_decide_where_unpaired_intervals_overlap(self):
        # Seed effects shared by both variants: the intervals overlap, the differences do not.
        a = seed_stats.Value([10.0, 20.0, 30.0])
        b = seed_stats.Value([9.0, 19.1, 29.0])
        self.assertTrue(a.low() < b.high())
        self.assertEqual(vd.greater(a, b).outcome, vd.HOLDS)
        self.assertEqual(vd.greater(b, a).outcome, vd.FAILS)
        c = seed_stats.Value([11.0, 19.0, 30.5])
        self.assertEqual(vd.greater(a, c).outcome, vd.INCONCLUSIVE)
        with self.assertRaises(vd.UnpairedError):
            vd.paired(a, seed_stats.Value([1.0, 2.0]))

    def test_within_with_readings_is_inconclusive_when_an_interval_crosses_the_tolerance(self):
        V = seed_stats.Value
        inside, crossing = V([0.01, 0.02, 0.03]), V([0.0, 0.1, 0.2])
        self.assertEqual(vd.within_with_readings([inside], 0.1).outcome, vd.HOLDS)
        verdict = vd.within_with_readings([inside, crossing], 0.1)
        self.assertEqual(verdict.outcome, vd.INCONCLUSIVE)
        self.assertIn("within 0.05", verdict.note)
        self.assertEqual(vd.within_with_readings([V([1.5, 1.6, 1.7])], 0.1, center=1.0).outcome, vd.FAILS)

    def test_direction_holds_fails_or_stays_undecided_across_points(self):
        V = seed_stats.Value
        up, level, down = (V([2.0, 3.0, 4.0]), V([1.0, 2.0, 3.0])), (V([1.0, 1.0, 1.0]),) * 2, \
            (V([1.0, 2.0, 3.0]), V([2.0, 3.0, 4.0]))
        noisy = (V([1.0, 5.0, 2.0]), V([2.0, 1.0, 3.0]))
        self.assertEqual(vd.direction({0.1: level, 0.2: up})[0].outcome, vd.HOLDS)
        verdict, text = vd.direction({0.1: up, 0.2: down})
        self.assertEqual(verdict.outcome, vd.FAILS)
        self.assertIn("lower at [0.2]", text)
        self.assertEqual(vd.direction({0.1: level, 0.2: noisy})[0].outcome, vd.INCONCLUSIVE)

    def test_the_reports_comparisons_are_paired_by_seed(self):
        a = seed_stats.Value([10.0, 20.0, 30.0])
        b = seed_stats.Value([9.0, 19.1, 29.0])
        self.assertEqual(seed_stats.greater(a, b), (True, ""))  # intervals overlap, differences 0.9-1 decide
        held, note = seed_stats.greater(a, seed_stats.Value([11.0, 19.0, 30.5]))
        self.assertEqual(vd.as_verdict(held, note).outcome, vd.INCONCLUSIVE)
        # Equal per seed: decided, not greater (not "undecided").
        self.assertEqual(seed_stats.greater(a, seed_stats.Value(list(a.samples))), (False, ""))
        # Different seed counts cannot be paired: their intervals are compared.
        self.assertIn("overlap", seed_stats.greater(a, seed_stats.Value([9.0, 29.0]))[1])

    def test_a_zero_baseline_makes_a_ratio_undefined_not_infinite(self):
        a = seed_stats.Value([0.02, 0.03, 0.01])
        zero = seed_stats.Value([0.0, 0.02, 0.01])
        with self.assertRaises(vd.ZeroBaselineError):
            vd.paired_ratio(a, zero)
        self.assertAlmostEqual(vd.paired_ratio(a, seed_stats.Value([0.01, 0.03, 0.01])).mean, 4.0 / 3.0)

    def test_a_relative_gain_over_a_zero_baseline_is_judged_on_the_difference(self):
        # Fed-X Fig. 1's case: knees of 0 for some seeds gave an infinite mean gain.
        message = seed_stats.Value([0.05, 0.0, 0.0, 0.05, 0.0])
        none = seed_stats.Value([0.05, 0.0, 0.0, 0.0, 0.05])
        v = vd.relative_gain(message, none, 0.2)
        self.assertEqual(v.outcome, vd.INCONCLUSIVE)
        self.assertIn("judged on the paired difference", v.note)
        self.assertEqual(vd.relative_gain(seed_stats.Value([1.5, 1.6, 1.55]), seed_stats.Value([1.0, 1.0, 1.0]),
                                          0.2).outcome, vd.HOLDS)

    def test_a_claim_of_parts_fails_with_any_part_and_holds_only_with_all(self):
        h, f, i = vd.Verdict(vd.HOLDS), vd.Verdict(vd.FAILS, "x"), vd.Verdict(vd.INCONCLUSIVE)
        self.assertEqual(vd.all_hold(h, h).outcome, vd.HOLDS)
        self.assertEqual(vd.all_hold(h, i).outcome, vd.INCONCLUSIVE)
        self.assertEqual(vd.all_hold(i, f).outcome, vd.FAILS)
        self.assertEqual(vd.all_hold(i, f).note, "x")

    def test_a_reading_shows_the_verdict_at_half_and_twice_its_threshold(self):
        v = seed_stats.Value([0.5, 0.55, 0.6])  # interval about 0.426-0.674
        r = vd.with_readings(v, 0.4)
        self.assertEqual(r.outcome, vd.HOLDS)
        self.assertIn("at 0.2: holds", r.note)
        self.assertIn("at 0.8: does not hold", r.note)
        # A ratio read as "within 10 % of 1": half and twice the tolerance, 0.95 and 0.8.
        near_one = vd.with_readings(seed_stats.Value([0.85, 0.87, 0.86]), 0.9, higher=False, around=1.0)
        self.assertEqual(near_one.outcome, vd.HOLDS)
        self.assertIn("at 0.95: holds", near_one.note)
        self.assertIn("at 0.8: does not hold", near_one.note)

    def test_a_curve_unpacks_as_a_pair_and_carries_its_error_bars(self):
        xs, ys = seed_stats.Curve([0.1, 0.2], [5.0, 6.0], [0.5, 0.0])
        self.assertEqual((xs, ys), ([0.1, 0.2], [5.0, 6.0]))
        self.assertEqual(seed_stats.Curve([0.1], [5.0], [0.5]).errs, [0.5])

    def test_bars_take_values_and_draw_their_intervals(self):
        from tools.report import lib
        with tempfile.TemporaryDirectory() as out:
            png = lib.bar_plot(os.path.join(out, "bars"), ["a", "b"],
                               {"x": [seed_stats.Value([1.0, 2.0]), 3.0], "y": [seed_stats.Value([4.0]), 0]},
                               "value", "title")
            if png is None:
                self.skipTest("python3-matplotlib is missing")
            self.assertTrue(os.path.exists(os.path.join(out, png)))

    def test_a_verdict_cannot_be_read_as_a_bool(self):
        with self.assertRaises(TypeError):
            bool(vd.Verdict(vd.HOLDS))

    def test_legacy_rows_whose_interval_does_not_decide_are_inconclusive(self):
        self.assertEqual(vd.as_verdict(True, seed_stats.FLIPS).outcome, vd.INCONCLUSIVE)
        self.assertEqual(vd.as_verdict(False, "the intervals overlap: not significant").outcome, vd.INCONCLUSIVE)
        self.assertEqual(vd.as_verdict(False, "").outcome, vd.FAILS)
        self.assertIsNone(vd.as_verdict(None))

    def test_a_report_counts_the_three_outcomes(self):
        rep = Report("t", "i")
        rep.claims([("a", "1", vd.Verdict(vd.HOLDS), ""), ("b", "2", True, seed_stats.FLIPS),
                    ("c", "3", False, ""), ("d", "4", None, "")])
        self.assertEqual(rep.summary(), {vd.HOLDS: 1, vd.FAILS: 1, vd.INCONCLUSIVE: 1, vd.NOT_APPLICABLE: 1,
                                         vd.DEPENDS_ON_READING: 0})
        self.assertIn("| b | 2 | **inconclusive** |", "\n".join(rep.lines))
        self.assertEqual(report_lib.summary_line(rep.summary()),
                         "1 claim holds, 1 does not, 1 is inconclusive, 1 not judged (n/a)")

    def test_a_verdict_that_flips_at_half_or_twice_our_threshold_says_it_depends_on_our_reading(self):
        v = seed_stats.Value([0.5, 0.55, 0.6])  # interval about 0.426-0.674
        flips = vd.with_readings(v, 0.4)  # holds at 0.4 and 0.2, not at 0.8
        self.assertTrue(flips.reading_dependent)
        self.assertEqual(flips.label, "holds, depends on our reading")
        steady = vd.with_readings(v, 0.1)  # holds at 0.05, 0.1 and 0.2
        self.assertFalse(steady.reading_dependent)
        self.assertEqual(steady.label, "holds")
        bound = vd.between_with_readings(v, 0.0, 1.0)  # at most 0.5: straddled; 1 and 2: holds
        self.assertTrue(bound.reading_dependent)
        self.assertIn("bound 1 is our reading (at most 0.5: inconclusive; at most 2: holds)", bound.note)
        rep = Report("t", "i")
        rep.claims([("a", "1", flips, ""), ("b", "2", steady, ""), ("c", "3", vd.all_hold(flips, steady), "")])
        self.assertIn("| a | 1 | **holds, depends on our reading** |", "\n".join(rep.lines))
        self.assertEqual(rep.summary()[vd.DEPENDS_ON_READING], 2)
        self.assertEqual(report_lib.summary_line(rep.summary()),
                         "3 claims hold, 0 do not, 0 are inconclusive; 2 of the verdicts depend on our reading of "
                         "a threshold")

    def test_a_part_that_fails_whatever_the_reading_decides_a_claim_of_parts(self):
        flips = vd.with_readings(seed_stats.Value([0.5, 0.55, 0.6]), 0.4)
        self.assertTrue(vd.all_hold(flips, vd.Verdict(vd.HOLDS)).reading_dependent)
        self.assertFalse(vd.all_hold(flips, vd.Verdict(vd.FAILS)).reading_dependent)

    def test_a_claim_met_by_either_part_holds_with_one_and_fails_only_with_both(self):
        h, f, i = vd.Verdict(vd.HOLDS), vd.Verdict(vd.FAILS), vd.Verdict(vd.INCONCLUSIVE)
        self.assertEqual(vd.any_holds(f, h).outcome, vd.HOLDS)
        self.assertEqual(vd.any_holds(f, f).outcome, vd.FAILS)
        self.assertEqual(vd.any_holds(f, i).outcome, vd.INCONCLUSIVE)
        flips = vd.with_readings(seed_stats.Value([0.5, 0.55, 0.6]), 0.4)
        self.assertTrue(vd.any_holds(f, flips).reading_dependent)
        self.assertFalse(vd.any_holds(h, flips).reading_dependent, "a part that holds at every reading decides")

    def test_the_best_option_is_decided_by_paired_differences_and_a_tie_is_inconclusive(self):
        values = {4: seed_stats.Value([0.80, 0.82, 0.81]), 8: seed_stats.Value([0.801, 0.819, 0.811]),
                  16: seed_stats.Value([0.70, 0.71, 0.72])}
        tie = vd.is_best(values, 8)  # 8 beats 16 but ties with 4 (differences +0.001, -0.001, +0.001)
        self.assertEqual(tie.outcome, vd.INCONCLUSIVE)
        self.assertIn("tied with 4", tie.note)
        self.assertEqual(vd.is_best(values, 16).outcome, vd.FAILS)
        clear = {"a": seed_stats.Value([3.0, 3.1, 3.2]), "b": seed_stats.Value([2.0, 2.1, 2.2])}
        self.assertEqual(vd.is_best(clear, "a").outcome, vd.HOLDS)
        self.assertEqual(vd.is_best(clear, "b", higher=False).outcome, vd.HOLDS)
        one_seed = {"a": seed_stats.Value([1.0]), "b": seed_stats.Value([1.0])}
        self.assertEqual(vd.is_best(one_seed, "a").outcome, vd.INCONCLUSIVE, "equal values tie")

    def test_a_slope_is_taken_seed_by_seed_and_has_an_interval(self):
        # Seed 1 rises by 1 per x, seed 2 by 2 per x: slopes 1 and 2, by hand.
        s = vd.slope([0, 1, 2], [seed_stats.Value([0, 0]), seed_stats.Value([1, 2]), seed_stats.Value([2, 4])])
        self.assertEqual(s.samples, [1.0, 2.0])
        self.assertAlmostEqual(s.mean, 1.5)
        self.assertIsNotNone(s.half)
        with self.assertRaises(vd.UnpairedError):
            vd.slope([0, 1], [seed_stats.Value([0, 0]), seed_stats.Value([1])])

    def test_a_change_the_paper_numbers_is_judged_by_direction_and_by_size_apart(self):
        # The paper: 17 % lower. Ours: 7.0 ± 0.25 % lower.
        ours = seed_stats.Value([-0.069, -0.070, -0.071])
        v = vd.direction_and_size(ours, -0.17, 0.5)  # size within 0.085 of -0.17: [-0.255, -0.085]
        self.assertEqual(v.outcome, vd.FAILS)
        self.assertIn("direction holds; size does not hold", v.note)
        self.assertTrue(v.reading_dependent, "within twice the tolerance ([-0.34, 0]) the size holds")
        near = vd.direction_and_size(seed_stats.Value([-0.16, -0.17, -0.18]), -0.17, 0.5)
        self.assertEqual(near.outcome, vd.HOLDS)
        self.assertIn("direction holds; size holds", near.note)
        wrong_way = vd.direction_and_size(seed_stats.Value([0.04, 0.05, 0.06]), -0.17, 0.5)
        self.assertEqual(wrong_way.outcome, vd.FAILS)
        self.assertIn("direction does not hold", wrong_way.note)
        self.assertFalse(wrong_way.reading_dependent, "the wrong direction fails at every reading")

    def test_a_sensitivity_table_gives_each_claims_outcome_per_setting_and_counts_changes(self):
        rep = Report("t", "i")
        rows = {"low": [("a", "", True, ""), ("b", "", False, ""), ("c", "", None, "")],
                "ours": [("a", "", True, ""), ("b", "", True, seed_stats.FLIPS), ("c", "", None, "")]}
        rep.verdicts_by_setting(rows)
        text = "\n".join(rep.lines)
        self.assertIn("| claim | low | ours |", text)
        self.assertIn("| a | holds | holds |", text)
        self.assertIn("| b | does not hold | inconclusive |", text)
        self.assertIn("| c | n/a | n/a |", text)
        self.assertIn("1 of 3 verdicts differ between the 2 settings.", text)
        self.assertEqual(sum(rep.summary().values()), 0, "a sensitivity table is not counted among the claims")


class QuickAgainstFull(unittest.TestCase):
    """A quick report lists every verdict that differs from its paper's full run, by claim."""

    def claims(self, rep, outcomes):
        rep.section("Fig. 1")
        rep.claims([(claim, "", vd.Verdict(o), "") for claim, o in outcomes])

    def test_the_claims_whose_verdict_differs_are_listed_and_counted(self):
        from tools.report import against_full
        full = Report("full", "i")
        self.claims(full, [("a", vd.HOLDS), ("b", vd.FAILS), ("b", vd.HOLDS), ("only full", vd.HOLDS)])
        quick = Report("quick", "i")
        self.claims(quick, [("a", vd.HOLDS), ("b", vd.FAILS), ("b", vd.FAILS), ("only quick", vd.INCONCLUSIVE)])
        quick.lines.insert(4, "**Summary**\n")
        with tempfile.TemporaryDirectory() as out:
            path = os.path.join(out, "p.verdicts.json")
            with open(path, "w") as f:
                json.dump(against_full.verdict_log(full), f)
            self.assertEqual(against_full.compare(quick, "p", path), 3)
        text = "\n".join(quick.lines)
        self.assertIn("3 of the 4 verdicts differ from [the full run's report](/docs/reproduction/p/full/p.md)", text)
        self.assertIn("| Fig. 1 | b | does not hold | holds |", text, "the second b, matched in order")
        self.assertIn("| Fig. 1 | only quick | inconclusive | not judged there |", text)
        self.assertIn("| Fig. 1 | only full | not judged here | holds |", text)
        self.assertNotIn("| Fig. 1 | a |", text)

    def test_each_committed_full_runs_verdicts_are_those_of_its_report(self):
        from tools.report import against_full
        for paper in ("dally", "fedx", "nifdy", "multirail", "spider", "dragonfly"):
            with open(os.path.join(against_full.REPO, against_full.full_report(paper))) as f:
                lines = f.read().splitlines()
            shown, in_claims = [], False
            for line in lines:  # the verdict column of every claims table
                if line.startswith("| paper's claim | measured | verdict |"):
                    in_claims = True
                elif in_claims and line.startswith("| ") and not line.startswith("|---"):
                    shown.append(line.split(" | ")[2].strip("*"))
                elif not line.startswith("|"):
                    in_claims = False
            with open(against_full.full_verdicts_path(paper)) as f:
                logged = [against_full._label(e) for e in json.load(f)]
            self.assertGreater(len(shown), 3, paper)
            self.assertEqual(shown, logged, f"{paper}: regenerate the full report and copy its verdicts.json")

    def test_without_a_committed_full_run_the_report_says_so(self):
        from tools.report import against_full
        quick = Report("quick", "i")
        quick.lines.insert(4, "**Summary**\n")
        self.assertIsNone(against_full.compare(quick, "p", "/nonexistent/p.verdicts.json"))
        self.assertIn("no full run's verdicts are committed", "\n".join(quick.lines))


class NamedParts(unittest.TestCase):
    def test_each_parts_note_carries_its_name(self):
        v = seed_stats.Value
        parts = {"regular": vd.decide(v([0.9, 1.0, 1.1]), 1.0), "balanced": vd.decide(v([2.0, 2.1, 2.2]), 1.0)}
        joined = vd.all_hold_named(parts)
        self.assertEqual(joined.outcome, vd.INCONCLUSIVE)
        self.assertTrue(joined.note.startswith("regular: "), joined.note)
        self.assertNotIn("balanced:", joined.note)  # a part decided plainly has no note


class FedxChannelLoadBound(unittest.TestCase):
    def test_distances_and_bound_by_hand(self):
        from tools.fedx import balanced
        self.assertEqual(balanced.hex_distance(8, 8, 0, 9), 1)    # (1, 1): a diagonal neighbour
        self.assertEqual(balanced.hex_distance(8, 8, 0, 7), 1)    # (-1, 0) across the wrap
        self.assertEqual(balanced.hex_distance(8, 8, 0, 15), 2)   # (-1, 1): no diagonal that way
        hops, full, half = balanced.channel_load_bound(3, 3)
        # 3x3 wrapped: the six offsets reach six switches; (1, -1) and (-1, 1) take two hops.
        self.assertAlmostEqual(hops, (6 * 1 + 2 * 2) / 9)
        self.assertEqual(full, 1.0)
        self.assertAlmostEqual(half, min(1.0, 3 / hops))


class FedxIndependentNodes(unittest.TestCase):
    def test_the_independent_nodes_are_judged_on_what_they_offered_in_the_window(self):
        def point(accepted, measured):
            return {"groups": [{"name": "independent", "accepted_rate": accepted, "offered_rate": 0.5,
                                "offered_measured_rate": measured}]}
        self.assertTrue(fedx_backpressure.independent_below(point(0.40, 0.42)))   # a quiet window: 0.95 of 0.42
        self.assertFalse(fedx_backpressure.independent_below(point(0.40, 0.45)))  # 0.89 of what was offered


class DallyFig19(unittest.TestCase):
    """A mesh sweep whose single lane saturates past 0.5 and whose 16 lanes reach 0.9: the
    throughput claims read the open-loop knee, not the saturation sources."""

    def verdicts(self, one_lane_peak, fine_peak=None):
        loads = [0.1, 0.3, 0.5, 0.7, 0.9]
        lanes = {1: one_lane_peak, 4: 0.87, 16: 0.95}
        latency = {1: 40, 4: 42, 16: 44}
        points = [({"router.lanes": l, LOAD: x, SEED: s},
                   result(x, min(x, peak), latency[l] * (1 + x) + s)) for l, peak in lanes.items()
                  for x in loads for s in (1, 2)]
        closed = [({"router.lanes": l, SEED: s}, result(1.0, 0.8 * peak, 0)) for l, peak in lanes.items()
                  for s in (1, 2)]
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "fig19b_mesh_latency", points)
            write_sweep(out, "fig19a_mesh_saturation", closed)
            if fine_peak is not None:  # the single lane on a grid of 0.01 (fig19c)
                fine = [0.45 + 0.01 * i for i in range(21)]
                write_sweep(out, "fig19c_mesh_single_lane_knee",
                            [({LOAD: x, SEED: s}, result(x, min(x, fine_peak), 40 * (1 + x) + s)) for x in fine
                             for s in (1, 2)])
            rep = Report("t", "t")
            dally_report.fig19(out, rep)
            self.notes = [v.note for v in rep.verdicts]
            self.measured = [line.split(" | ")[1] for line in rep.lines if line.startswith("| \"")]
            return [None if v is None else v.outcome for v in rep.verdicts]

    def test_verdicts_follow_the_data(self):
        v = self.verdicts(0.5)
        self.assertEqual(len(v), 5)
        self.assertEqual(v[0], vd.HOLDS)             # one lane: knee 0.5
        self.assertEqual(v[1], vd.HOLDS)             # 16 lanes: knee 0.9 although saturation sources give 0.76
        self.assertEqual(v[2], vd.HOLDS)             # 4 lanes reach the 16-lane knee: all of the gain
        self.assertEqual(v[3], vd.HOLDS)             # spread (44 - 40) / 40 at low load
        self.assertEqual(self.verdicts(0.3)[0], vd.HOLDS)    # knee 0.3: one grid step (0.2) from 50 %, the rule's edge
        self.assertEqual(self.verdicts(0.2)[0], vd.FAILS)   # knee 0.1: two steps away

    def test_the_single_lane_knee_is_read_on_the_finer_grid_where_there_is_one(self):
        # Accepting min(x, peak), a load is past saturation once peak < 0.95 x: the knee is the last
        # load of the fine grid below peak / 0.95.
        self.assertEqual(self.verdicts(0.5, fine_peak=0.5)[0], vd.HOLDS)     # knee 0.52: within 0.05 of 0.5
        self.assertEqual(self.verdicts(0.5, fine_peak=0.585)[0], vd.FAILS)   # knee 0.61, although the coarse
        self.assertIn("grid of 0.01 (fig19c)", self.measured[0])              # grid's knee is 0.5

    def test_the_thresholds_of_our_reading_are_judged_at_half_and_twice(self):
        self.verdicts(0.5)
        # "most" of the gain: more than half, and beside it a quarter and all of it (4 lanes reach 0.9
        # in this sweep: all of the gain, so every reading holds).
        self.assertIn("threshold 0.5 is our reading (at 0.25: holds; at 1: holds)", self.notes[2])
        self.assertIn("bound 0.25 is our reading (at most 0.125:", self.notes[4])


class DallySharpPeak(unittest.TestCase):
    """Fig. 17's sharp peak at the minimum: above the next three bins and a peak of the histogram."""

    def test_a_peak_must_stand_above_its_neighbours_and_near_the_tallest_bin(self):
        from tools.dally import histograms
        half = histograms.sharp_verdict([0, 0, 10, 2, 2, 2, 20])  # 10 of the tallest 20: at 0.5, not at 1
        self.assertEqual(half.outcome, vd.HOLDS)
        self.assertTrue(half.reading_dependent)
        ripple = histograms.sharp_verdict([0, 0, 4, 1, 1, 1, 20])  # above its neighbours, a fifth of the tallest
        self.assertEqual(ripple.outcome, vd.FAILS)
        self.assertFalse(ripple.reading_dependent, "a fifth fails at a quarter too")


class SpiderFig3(unittest.TestCase):
    """Three switching modes at three loads, two seeds, with the shapes the paper describes;
    the wormhole peak is the knob that makes the "dramatically lower" claim hold or not."""

    def verdicts(self, wormhole_peak):
        loads = [0.1, 0.5, 0.9]
        shapes = {  # (accepted at each load, latency at each load, host arrivals at each load)
            "packet switching": ([0.1, 0.5, 0.85], [200, 260, 900], [0.002, 0.01, 0.02]),
            "virtual cut-through": ([0.1, 0.5, 0.8], [80, 150, 1500], [0.0, 0.002, 0.01]),
            "wormhole": ([0.1, min(0.5, wormhole_peak), wormhole_peak], [78, 400 if wormhole_peak < 0.475 else 300,
                                                                          5000], [0.0, 0.0, 0.0]),
        }
        points = []
        for mode, (acc, lat, host) in shapes.items():
            for i, x in enumerate(loads):
                for seed in (1, 2):
                    points.append(({"switching": mode, LOAD: x, SEED: seed}, result(x, acc[i], lat[i], host[i])))
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "fig03_switching", points)
            rep = Report("t", "t")
            spider_report.fig3(out, rep)
            return [None if v is None else v.outcome for v in rep.verdicts]

    def test_verdicts_follow_the_data(self):
        dramatic = self.verdicts(0.3)     # wormhole peak 0.3 of capacity against 0.8 and 0.85
        self.assertEqual(len(dramatic), 8)
        self.assertEqual(dramatic[0], vd.HOLDS)      # packet switching loads the hosts most at every load
        self.assertEqual(dramatic[1], vd.HOLDS)      # wormhole: no host arrivals
        self.assertEqual(dramatic[3], vd.HOLDS)      # wormhole worse than packet switching from 0.5 on
        self.assertEqual(dramatic[5], vd.HOLDS)      # virtual cut-through within 5 % of wormhole at 0.1
        self.assertEqual(dramatic[7], vd.HOLDS)      # 0.3 / 0.8 <= 0.6
        mild = self.verdicts(0.7)         # 0.7 / 0.8 > 0.6
        self.assertEqual(mild[7], vd.FAILS)


class DragonflyLinks(unittest.TestCase):
    """Three groups of two routers (0-1, 2-3, 4-5): two local links and three global links
    per group, one of them into the next group; one sample of 100 cycles."""

    LINKS = [(0, 1), (2, 3), (4, 5), (1, 2), (3, 4), (5, 0), (0, 4), (2, 0), (4, 2)]  # local x3, next x3, other x3

    def point(self, flits):
        ends = {"src_router": [a for a, _ in self.LINKS], "dst_router": [b for _, b in self.LINKS]}
        links = dict(ends, kind=["router"] * len(self.LINKS), lanes=[2] * len(self.LINKS))
        zeros = [[0] * len(self.LINKS)]
        stats = {"links": links, "routers": {"group": [0, 0, 1, 1, 2, 2]}, "sample_ends": [100], "per_lane": False,
                 "flits": [flits], "occupancy": zeros, "no_credit": zeros, "lost_arbitration": zeros,
                 "no_route": zeros}
        return {"link_stats": [stats], "offered_fraction": 0.2}

    def test_links_are_told_apart_by_the_groups_they_join(self):
        loads = dragonfly_links.channel_loads(self.point([10, 20, 30, 100, 90, 80, 1, 2, 3]))
        self.assertEqual(loads["local"], [0.1, 0.2, 0.3])
        self.assertEqual(loads["next"], [1.0, 0.9, 0.8])
        self.assertEqual(loads["global"], [0.01, 0.02, 0.03])
        self.assertAlmostEqual(dragonfly_links.peak_to_mean(loads["global"]), 1.5)
        self.assertIsNone(dragonfly_links.peak_to_mean([0.0, 0.0]))

    def test_valiant_balance_holds_only_when_both_kinds_are_even(self):
        even = {1: self.point([40, 41, 42, 48, 52, 50, 50, 51, 49]), 2: self.point([41, 40, 42, 50, 49, 51, 49, 50, 51])}
        self.assertEqual(dragonfly_links.valiant_balance_row(even)[2].outcome, vd.HOLDS)
        skewed = {1: self.point([10, 10, 90, 48, 52, 50, 50, 51, 49]), 2: self.point([10, 11, 90, 50, 49, 51, 49, 50, 51])}
        self.assertEqual(dragonfly_links.valiant_balance_row(skewed)[2].outcome, vd.FAILS)
        # Global channels left idle (the next-group ones, which VAL never takes) count as unbalanced.
        idle = {1: self.point([40, 41, 42, 0, 0, 0, 50, 51, 49]), 2: self.point([41, 40, 42, 0, 0, 0, 49, 50, 51])}
        self.assertEqual(dragonfly_links.valiant_balance_row(idle)[2].outcome, vd.FAILS)


    def test_minimal_packets_cross_one_global_channel_when_the_other_global_links_are_idle(self):
        one = {1: self.point([10, 20, 30, 100, 90, 80, 0, 0, 0]), 2: self.point([10, 20, 30, 100, 90, 80, 0, 0, 0])}
        self.assertEqual(dragonfly_links.one_global_channel_row(one)[2].outcome, vd.HOLDS)
        two = {1: self.point([10, 20, 30, 100, 90, 80, 0, 5, 0]), 2: self.point([10, 20, 30, 100, 90, 80, 0, 0, 0])}
        self.assertEqual(dragonfly_links.one_global_channel_row(two)[2].outcome, vd.FAILS)

    def test_groups_form_a_complete_graph_of_virtual_routers_with_one_channel_per_pair(self):
        row = dragonfly_links.virtual_router_row(self.point([0] * 9))  # every ordered pair of the 3 groups once
        self.assertEqual(row[2].outcome, vd.HOLDS)
        self.assertIn("3 groups of 2 routers", row[1])
        saved = self.LINKS
        try:
            self.LINKS = saved[:-1]  # group 2 to group 1 missing
            self.assertEqual(dragonfly_links.virtual_router_row(self.point([0] * 8))[2].outcome, vd.FAILS)
        finally:
            self.LINKS = saved


class DragonflyRouting(unittest.TestCase):
    """The abstract's "degraded performance" claim follows UGAL-L's and UGAL-G's maxima."""

    def degraded(self, ugal_l_peak):
        points = []
        for split, peak in (("UGAL-L", ugal_l_peak), ("UGAL-G", 0.5)):
            for x in (0.2, 0.4, 0.6):
                for seed in (1, 2, 3):
                    accepted = min(x, peak) + 0.001 * seed
                    points.append(({"split": split, "traffic.pattern.type": "group_shift", LOAD: x, SEED: seed},
                                   result(x, accepted, 50)))
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "routing", points)
            return dragonfly_report.degraded_row(dragonfly_report.routing_grid(out))[2].outcome

    def test_verdicts_follow_the_data(self):
        self.assertEqual(self.degraded(0.3), vd.HOLDS)    # 0.5 / 0.3: 67 % more
        self.assertEqual(self.degraded(0.49), vd.FAILS)   # 2 % more

    def test_with_one_measure_ugal_g_is_set_against_ugal_l_counting_what_waits(self):
        def peaks(peak_of):
            return [({LOAD: x, SEED: seed, **extra}, result(x, min(x, peak) + 0.001 * seed, 50))
                    for extra, peak in peak_of for x in (0.2, 0.4, 0.6) for seed in (1, 2, 3)]
        for waiting_peak, outcome in ((0.3, vd.HOLDS), (0.49, vd.FAILS)):
            with tempfile.TemporaryDirectory() as out:
                write_sweep(out, "routing", peaks([({"split": s, "traffic.pattern.type": "group_shift"}, p)
                                                   for s, p in (("UGAL-L", 0.2), ("UGAL-G", 0.5))]))
                write_sweep(out, "same_measure", peaks([({}, waiting_peak)]))
                rep = Report("t", "i")
                dragonfly_report.same_measure(out, rep)
                self.assertEqual(rep.verdicts[-1].outcome, outcome, waiting_peak)
                self.assertIn("| UGAL-L, waiting | uncredited flits and waiting heads |", "\n".join(rep.lines))


    def test_latency_is_compared_at_the_highest_load_both_carry_below_saturation(self):
        def row(ugal_l_latency):
            points = []
            for split, peak, latency in (("UGAL-L", 0.3, ugal_l_latency), ("UGAL-G", 0.5, 50)):
                for x in (0.1, 0.2, 0.4):
                    for seed in (1, 2, 3):
                        j = result(x, min(x, peak), latency * x / 0.2 + seed)
                        j["message_latency"] = j["latency"]
                        points.append(({"split": split, "traffic.pattern.type": "group_shift", LOAD: x, SEED: seed}, j))
            with tempfile.TemporaryDirectory() as out:
                write_sweep(out, "routing", points)
                return dragonfly_routing_claims.latency_degraded_row(dragonfly_report.routing_grid(out))
        claim, measured, verdict, _ = row(60)  # at 0.2: 61-63 against 51-53, about 19 % more
        self.assertIn("at offered load 0.2, the highest below saturation for both", measured)
        self.assertIn("(at 0.1: ", measured)
        self.assertEqual(verdict.outcome, vd.HOLDS)
        self.assertEqual(row(52)[2].outcome, vd.FAILS)  # about 4 % more


class DragonflyBooksimSetup(unittest.TestCase):
    """icnsim's runs at BookSim's setup set beside BookSim's stored ones, case by case."""

    def test_each_stored_case_is_set_beside_the_same_point_with_the_ratio_of_means(self):
        points = [({"split": "MIN", "traffic.pattern.type": "uniform", LOAD: x, SEED: seed},
                   dict(result(x, x, 100 + seed), topology="dragonfly p=2 a=4 h=2 g=9",
                        message_latency={"mean": 100.0 + seed})) for x in (0.3, 0.9) for seed in (1, 2)]
        with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as stored:
            write_sweep(out, "booksim_setup", points)
            with open(os.path.join(stored, "reference_k2.csv"), "w") as f:
                f.write("k,routing,pattern,load,metric,seed,accepted,latency\n"
                        "2,MIN,uniform,0.3,latency,1,0.3,120.0\n2,MIN,uniform,0.3,latency,2,0.3,130.0\n"
                        "2,MIN,uniform,0.9,accepted,1,0.6,999\n2,MIN,uniform,0.9,accepted,2,0.6,999\n")
            saved = dragonfly_booksim_setup.REFERENCE_DIR
            dragonfly_booksim_setup.REFERENCE_DIR = stored
            try:
                rep = Report("t", "i")
                dragonfly_booksim_setup.against_booksim(rep, dragonfly_booksim_setup.setup_grid(out))
            finally:
                dragonfly_booksim_setup.REFERENCE_DIR = saved
        text = "\n".join(rep.lines)
        self.assertIn("| MIN | UR | 0.3 | latency | 125.0 ± 63.5 | 101.5 ± 6.4 | 0.812 |", text)
        self.assertIn("| MIN | UR | 0.9 | accepted load | 0.600 ± 0.000 | 0.900 ± 0.000 | 1.500 |", text)

    def test_a_network_without_stored_runs_says_how_to_make_them(self):
        points = [({"split": "MIN", "traffic.pattern.type": "uniform", LOAD: 0.3, SEED: 1},
                   dict(result(0.3, 0.3, 100), topology="dragonfly p=7 a=14 h=7 g=99"))]
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "booksim_setup", points)
            rep = Report("t", "i")
            dragonfly_booksim_setup.against_booksim(rep, dragonfly_booksim_setup.setup_grid(out))
        self.assertIn("No BookSim runs of k = 7 are stored", "\n".join(rep.lines))
        self.assertIn("--k 7 --csv FILE", "\n".join(rep.lines))


class MultirailNicCosts(unittest.TestCase):
    """Striping's saving, 1 - striped / unstriped, paired by seed, per algorithm and NIC cost."""

    def test_each_cost_is_set_beside_its_striped_twin(self):
        def point(variant, seed, latency):
            j = result(0.05, 0.05, latency)
            j["message_latency"] = {"mean": latency}
            return ({"variant": variant, SEED: seed}, j)
        points = [point(v, seed, lat + seed) for v, lat in (("dynamic", 1000), ("dynamic, striping", 400),
                                                            ("dynamic/thread 100", 1000),
                                                            ("dynamic, striping/thread 100", 200))
                  for seed in (1, 2, 3)]
        text = printed_table("nic", points, multirail_investigations.nic_costs)
        self.assertIn("| dynamic | as reproduced | 1002 ± 2 | 402 ± 2 | 59.9 ± 0.1 % |", text)
        self.assertIn("| dynamic | thread 100 | 1002 ± 2 | 202 ± 2 | 79.8 ± 0.2 % |", text)


class DragonflyArbitration(unittest.TestCase):
    """Per arbitration policy and load: accepted, latency, the longest latency, undelivered."""

    def test_starvation_shows_as_undelivered_packets_and_a_long_tail(self):
        def point(policy, seed, undelivered, longest):
            j = result(0.1, 0.08 if undelivered else 0.1, 400 + seed)
            j["latency"]["max"], j["undelivered_packets"] = longest + seed, undelivered + seed
            return ({"arbitration": policy, "traffic.load": 0.1, SEED: seed}, j)
        points = [point("oldest first", s, 0, 1000) for s in (1, 2)] + [point("round robin", s, 100, 9000)
                                                                         for s in (1, 2)]
        text = printed_table("arb", points, dragonfly_investigations.arbitration)
        self.assertIn("| round robin | 0.1 | 0.080 ± 0.000 | 402 ± 6 | 9002 ± 6 | 102 ± 6 |", text)
        self.assertIn("| oldest first | 0.1 | 0.100 ± 0.000 | 402 ± 6 | 1002 ± 6 | 2 ± 6 |", text)


class BooksimComparison(unittest.TestCase):
    """Both simulators of each timed system run the same cycles (BookSim counts its warm-up period
    among max_samples) and the same packets."""

    def test_every_system_gives_both_the_same_windows_and_packets(self):
        import tomllib
        for name, (_, make) in perf_booksim.SYSTEMS.items():
            toml, keys = make()
            sim = tomllib.loads(toml.replace("{root}", "."))["simulation"]
            self.assertEqual(keys["sample_period"] * keys["max_samples"],
                             sim["warmup_cycles"] + sim["measure_cycles"], name)
            self.assertEqual(keys["warmup_periods"] * keys["sample_period"], sim["warmup_cycles"], name)
            # the packets: the file's own, or the experiment it extends
            source = toml
            if toml.startswith("extends"):
                with open(os.path.join(os.path.dirname(__file__), "..", "experiments", "dragonfly",
                                       "booksim_setup.toml")) as f:
                    source = f.read()
            self.assertIn(f"packet_length = {keys['packet_size']}\n", source, name)


class FedxRefusals(unittest.TestCase):
    """Offers refused per switch per 1,000 cycles by reason and origin, and the rule's share."""

    def test_each_reason_and_the_rules_share_are_printed(self):
        def point(seed):
            j = result(0.9, 0.5, 100)
            j["router_counters"] = {f"refused_{why}_{origin}": {"mean": 0.001 * (i + 1)}
                                    for i, (why, origin) in enumerate(
                                        (w, o) for w in ("full", "class", "rule") for o in ("transit", "injection"))}
            return ({"variant": "as in Figs. 7-10", "traffic.rate": 0.9, SEED: seed}, j)
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "fedx_ablation", [point(1), point(2)])
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                fedx_investigations.refusals(fedx_investigations.Grid(
                    out, "fedx_ablation", ["variant", "traffic.rate"], load="traffic.rate"), 0.9)
        # counts 1..6 per 1,000 cycles; the rule's (5 + 6) of 21
        self.assertIn("| as in Figs. 7-10 | 1.0 ± 0.0 | 2.0 ± 0.0 | 3.0 ± 0.0 | 4.0 ± 0.0 | 5.0 ± 0.0 | 6.0 ± 0.0 "
                      "| 0.52 ± 0.00 |", printed.getvalue())


class MultirailOneKb(unittest.TestCase):
    """Per NIC thread cost: the maximum accepted load on the fewest and most rails, and their ratio."""

    def test_the_ratio_of_the_most_rails_to_one_is_paired_by_seed(self):
        size = "traffic.message_length[0].mean_packets"
        points = [({"network.rails": rails, "nic.thread_cycles": cycles, "traffic.load": load, size: 3.2, SEED: seed},
                   result(load, min(load, cap * (1.2 if rails == 4 else 1.0)) + 0.001 * seed, 100))
                  for rails in (1, 4) for cycles, cap in ((25, 0.2), (400, 0.05)) for load in (0.1, 0.5)
                  for seed in (1, 2)]
        text = printed_table("m1k", points, multirail_investigations.one_kb)
        self.assertIn("| 400 | 0.052 ± 0.006 | 0.061 ± 0.006 | 1.19 ± 0.02 |", text)
        self.assertIn("| 25 | 0.202 ± 0.006 | 0.241 ± 0.006 | 1.20 ± 0.01 |", text)


class NifdyPoolInvestigation(unittest.TestCase):
    """Packets delivered at each pool size over B = 16's, seed by seed, and B = 64 against it."""

    def test_each_pool_is_set_against_b_16(self):
        points = [({"cost": "40/60", "traffic": "heavy", "nic.O": 4, "nic.B": b, SEED: seed},
                   {"delivered_packets": packets + seed, "offered": 1, "accepted": 1, "drained": True})
                  for b, packets in ((4, 900), (16, 1000), (64, 1100)) for seed in (1, 2, 3)]
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "nifdy_pool_beyond_16", points)
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                nifdy_investigations.pool(out)
        self.assertIn("| 40/60 | heavy | 4 | 0.900 ± 0.000 | 1.000 ± 0.000 | 1.100 ± 0.000 | more |",
                      printed.getvalue())


class DragonflyThresholdUniform(unittest.TestCase):
    """UGAL's threshold on UR: each variant's maximum against MIN's, paired by seed."""

    def test_the_thresholds_at_which_ugal_l_reaches_minimal_are_named(self):
        points = [({"split": split, LOAD: x, SEED: seed}, result(x, min(x, peak) + 0.001 * seed, 50))
                  for split, peak in (("MIN", 0.8), ("UGAL-L/threshold 0", 0.7), ("UGAL-L/threshold 256", 0.8))
                  for x in (0.7, 0.8, 0.9) for seed in (1, 2, 3)]
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "threshold_uniform", points)
            rep = Report("t", "i")
            dragonfly_report.threshold_uniform(out, rep)
        text = "\n".join(rep.lines)
        self.assertIn("| UGAL-L/threshold 0 | 0.702 ± 0.002 | 0.875 ± 0.000 | holds |", text)  # 0.701/0.801 … 0.703/0.803
        self.assertIn("| UGAL-L/threshold 256 | 0.802 ± 0.002 | 1.000 ± 0.000 | does not hold |", text)
        self.assertIn("UGAL-L is not below MIN's maximum at threshold 256.", text)
        self.assertLess(text.index("| MIN |"), text.index("| UGAL-L/threshold 0 |"))


class DragonflyBeyond(unittest.TestCase):
    """The study beyond the paper names, per network, the routing that accepts most under its
    own adversarial pattern."""

    def test_the_best_routing_is_read_from_each_networks_adversarial_pattern(self):
        peaks = {"routing": {"MIN": (0.8, 0.1), "UGAL-G": (0.7, 0.5)},
                 "beyond_slim_fly": {"MIN": (0.8, 0.3), "VAL": (0.5, 0.45), "UGAL-L": (0.8, 0.4)}}
        with tempfile.TemporaryDirectory() as out:
            for experiment, splits in peaks.items():
                adversarial = dragonfly_beyond.NETWORKS[experiment][1]
                points = []
                for split, (uniform, worst) in splits.items():
                    for pattern, peak in (("uniform", uniform), (adversarial, worst)):
                        for x in (0.2, 0.6, 1.0):
                            j = dict(result(x, min(x, peak), 40), topology="t", terminals=8)
                            points.append(({"split": split, "traffic.pattern.type": pattern, LOAD: x, SEED: 1}, j))
                write_sweep(out, experiment, points)
            grids = {e: seed_stats.Grid(out, e, ["split", "traffic.pattern.type", LOAD]) for e in peaks}
            text = dragonfly_beyond.best_routings(grids)
        self.assertIn("dragonfly: UGAL-G (0.500 against MIN's 0.100)", text)
        self.assertIn("Slim Fly: VAL (0.450 against MIN's 0.300)", text)


class FedxLongMixture(unittest.TestCase):
    """§5's 80/20 workload: alpha = 8 gains x2 overall on the wk-mixture and x1.1 on 80/20,
    and short messages gain `short_gain` on 80/20."""

    def verdicts(self, short_gain):
        def point(rate, short, overall, long):
            return {"offered": rate, "accepted": rate, "drained": True, "message_latency": {"mean": overall},
                    "message_lengths": [{"name": "short", "message_latency": {"mean": short}},
                                        {"name": "long", "message_latency": {"mean": long}}]}
        gains = {"fig04_06_alpha_scheduling": (3.0, 2.0), "fig04_06b_alpha_long_mixture": (short_gain, 1.1)}
        with tempfile.TemporaryDirectory() as out:
            for experiment, (short, overall) in gains.items():
                points = []
                for alpha, factor in ((0.0, 1.0), (8.0, 0.0)):
                    for rate in (0.2, 0.4):
                        for seed in (1, 2):
                            s = 1000 / (short if factor == 0.0 else 1.0) + seed
                            o = 2000 / (overall if factor == 0.0 else 1.0) + seed
                            points.append(({"nic.alpha": alpha, "traffic.rate": rate, SEED: seed},
                                           point(rate, s, o, 5000)))
                write_sweep(out, experiment, points)
            rep = Report("t", "t")
            fedx_report.long_mixture(out, rep)
            return [None if v is None else v.outcome for v in rep.verdicts]

    def test_less_overall_impact_and_a_significant_short_message_gain(self):
        self.assertEqual(self.verdicts(short_gain=2.0), [vd.HOLDS, vd.HOLDS])
        self.assertEqual(self.verdicts(short_gain=1.05), [vd.HOLDS, vd.FAILS])   # below our 20 %


class NifdyPayload(unittest.TestCase):
    """NIFDY delivers 950 packets in 300 messages where the plain NI and buffers-only deliver
    1000 in 300: in payload words (8-word packets) NIFDY's 7 * 950 - 300 = 6350 beats 6 * 1000
    on a network that reorders, but not 7 * 1000 - 300 = 6700 on one that delivers in order."""

    def verdicts(self, mesh_reorders):
        with tempfile.TemporaryDirectory() as out:
            for suffix, reorders in (("full_fat_tree", True), ("mesh_8x8", mesh_reorders)):
                points = []
                for ni in nifdy_report.NIS:
                    for traffic in ("heavy", "light"):
                        for seed in (1, 2):
                            packets = 950 + seed if ni == "NIFDY" else 1000 + seed
                            points.append(({"ni": ni, "traffic": traffic, SEED: seed}, {
                                "delivered_packets": packets, "message_latency": {"count": 300},
                                "out_of_order_packets": 5 if reorders and ni != "NIFDY" else 0}))
                write_sweep(out, "fig02_03_" + suffix, points)
            rep = Report("t", "t")
            raw = nifdy_report.delivered(out)
            best = nifdy_common.best_buffers(raw)
            rows = nifdy_report.payload_claims(out, rep, nifdy_common.with_best_buffers(raw, best), best,
                                               ["full fat tree", "8x8 mesh"])
            return [vd.as_verdict(held, note).outcome for _, _, held, note in rows]

    def test_in_order_delivery_counts_only_where_the_plain_network_lacks_it(self):
        self.assertEqual(self.verdicts(mesh_reorders=True), [vd.HOLDS, vd.HOLDS])
        self.assertEqual(self.verdicts(mesh_reorders=False), [vd.FAILS, vd.FAILS])


class NifdyBound(unittest.TestCase):
    """The processors' ceiling is N x cycles / (T_send + T_receive); T_lat is the tail's latency
    less the packet's serialisation, at the paper's d (router hops + 2 on a fat tree)."""

    def point(self, send, receive):
        return {"terminals": 64, "config": {"simulation.measure_cycles": "1000", "processor.send_overhead": str(send),
                                            "processor.receive_overhead": str(receive)}}

    def test_ceiling(self):
        self.assertEqual(nifdy_bound.ceiling(self.point(40, 60)), 640)
        self.assertEqual(nifdy_bound.ceiling(self.point(0, 0)), float("inf"))

    def test_header_latency_on_the_papers_distances(self):
        with tempfile.TemporaryDirectory() as out:
            # a 32-flit packet: 31 cycles of serialisation; 5 cycles a hop from d = 2
            hops = [{"hops": h, "mean": 31 + 5 * (h + 2) + 2, "count": 10} for h in (0, 2, 4)]
            write_sweep(out, "latency_full_fat_tree", [({SEED: 1}, {
                "config": {"traffic.packet_length": "32"}, "latency_by_hops": hops})])
            latency = nifdy_bound.header_latency(out)["full fat tree"]
        self.assertEqual(latency, {2: 12.0, 4: 22.0, 6: 32.0})
        self.assertEqual(nifdy_bound.fit(latency), (5.0, 2.0))


class NifdyBuffersRedistributed(unittest.TestCase):
    """Buffers-only stands for each case's best split of the buffering, the others left out."""

    def test_the_best_split_per_case(self):
        v = seed_stats.Value
        values = {("mesh", "light", "none"): v([5]), ("mesh", "light", "buffers only"): v([10]),
                  ("mesh", "light", "buffers only, arrivals 3/4"): v([12]),
                  ("mesh", "heavy", "buffers only"): v([9]), ("mesh", "heavy", "buffers only, arrivals 1/4"): v([8])}
        best = nifdy_common.best_buffers(values)
        self.assertEqual(best, {("mesh", "light"): "buffers only, arrivals 3/4", ("mesh", "heavy"): "buffers only"})
        chosen = nifdy_common.with_best_buffers(values, best)
        self.assertEqual({k: x.mean for k, x in chosen.items()},
                         {("mesh", "light", "none"): 5, ("mesh", "light", "buffers only"): 12,
                          ("mesh", "heavy", "buffers only"): 9})
        self.assertEqual([nifdy_common.split_name(c) for c in best.values()], ["3/4", "1/2"])


class ScalingExchangeModel(unittest.TestCase):
    def test_two_ranks_on_the_16x16_mesh_by_hand(self):
        # Uniform traffic at half of capacity (4/k = 0.25 flits/node/cycle): 0.125. The ranks
        # split rows 0-7 from 8-15; each of the 16 columns' two channels across the cut carries
        # 0.125 x 8 x 16 x 8 / 256 = 0.5 flits per cycle: 8 each way. Each 20-flit packet's
        # head that comes in brings its records (136 bytes); split by terminal, nothing else
        # goes to every rank. Per exchange, 48 bytes of counters per cycle and 7 list counts:
        # every 4 cycles, the counts weigh a quarter.
        rate = scaling_report.offered_rate("mesh16x16")
        self.assertAlmostEqual(rate, 0.125)
        volume, crossing, packets = scaling_report.predicted_exchange("mesh16x16", 2, 1, rate)
        self.assertAlmostEqual(crossing, 16.0)
        self.assertAlmostEqual(packets, 1.6)
        self.assertAlmostEqual(volume, 48 + 56 + (20 + 136 / 20) * 8.0 + 8 * 8.0)
        later = scaling_report.predicted_exchange("mesh16x16", 2, 1, rate, lookahead=4)[0]
        self.assertAlmostEqual(volume - later, 56 - 14)

    def test_a_full_64x64_mesh_moves_its_steady_flit_hops(self):
        # By hand: 4096 terminals at 0.5 of capacity, 2/64 flits per node per cycle (the
        # centre channel of a line of 64 carries 64/4 per unit rate), each crossing 2 x 21
        # router channels on average ((64^2 - 1) / (3 x 64) per dimension, ties go +) and
        # its injection and ejection channels.
        per_dimension = (64 ** 2 - 1) / (3 * 64)
        steady = 4096 * (2 / 64) * (2 * per_dimension + 2)
        self.assertAlmostEqual(scaling_report.steady_hops_per_cycle("mesh64x64"), steady)
        row = {"config": "mesh64x64", "cycles": 100, "flit_hops": 100 * 0.96 * steady}
        self.assertAlmostEqual(scaling_report.fill_of(row), 0.96)
        row["flit_hops"] = 100 * 0.90 * steady
        self.assertLess(scaling_report.fill_of(row), scaling_report.FULL)

    def test_the_lookahead_comes_from_the_timing_overrides(self):
        self.assertEqual(scaling_report.lookahead_of(""), 1)
        self.assertEqual(scaling_report.lookahead_of("timing.channel_latency=4"), 1)  # credits still take a cycle
        self.assertEqual(scaling_report.lookahead_of("timing.channel_latency=4;router.lanes=2;timing.credit_delay=3"), 3)

    def test_rank_0s_cuts_on_a_torus_and_a_mesh(self):
        # A 16-ring, ties going +: a source's flits cross 1 + ... + 8 = 36 channels going +
        # and 1 + ... + 7 = 28 going -, spread over the 16 positions. Two ranks cut each of
        # the 16 rings twice (rows 7/8 and the wrap-around 15/0).
        torus = scaling_report.predicted_exchange("torus16x2", 2, 1, 0.1)[1]
        self.assertAlmostEqual(torus, 2 * 16 * (36 + 28) / 16 * 0.1)
        # Four ranks on the mesh: rank 0 holds rows 0-3, cut once between rows 3 and 4,
        # 0.1 x 4 x 16 x 12 / 256 = 0.3 flits per column each way. Threads add no cuts.
        self.assertAlmostEqual(scaling_report.predicted_exchange("mesh16x16", 4, 1, 0.1)[1], 16 * 2 * 0.3)
        self.assertAlmostEqual(scaling_report.predicted_exchange("mesh16x16", 4, 2, 0.1)[1], 16 * 2 * 0.3)

    def test_the_window_leaves_out_the_shorter_run(self):
        def row(cycles, per_cycle, hops, exchanges):
            return {"config": "mesh8x8", "network": "mesh8x8 with timing.credit_delay=2", "ranks": 2.0,
                    "threads": 1.0, "cycles": float(cycles), "exchange_bytes_per_cycle": per_cycle, "flit_hops": hops,
                    "exchanges": float(exchanges), "overrides": "timing.channel_latency=2;timing.credit_delay=2"}
        [(key, first, last, volume, _, lookahead, per_exchange)] = scaling_report.steady_volumes(
            [row(100, 50.0, 0, 52), row(300, 150.0, 0, 152)])
        self.assertEqual((first, last), (100, 300))
        self.assertAlmostEqual(volume, (300 * 150.0 - 100 * 50.0) / 200)
        self.assertEqual(lookahead, 2)
        self.assertAlmostEqual(per_exchange, 2.0)
        with self.assertRaises(SystemExit):
            scaling_report.steady_volumes([row(100, 50.0, 0, 52)])


class BooksimCrosscheck(unittest.TestCase):
    """The BookSim side of tools/router/booksim_crosscheck.py, without BookSim."""

    def test_reads_the_overall_statistics_not_a_sample(self):
        text = ("Accepted flit rate average = 0.5\n====== Overall Traffic Statistics ======\n"
                "Packet latency average = 113.9 (1 samples)\nAccepted flit rate average= 0.19 (1 samples)\n")
        self.assertEqual(crosscheck.overall_stat(text, "Packet latency"), 113.9)
        with self.assertRaises(RuntimeError):
            crosscheck.overall_stat("no statistics", "Packet latency")

    def test_latency_cases_offer_the_load_in_flits_of_icnsim_capacity(self):
        cfg = crosscheck.booksim_config(("mesh", 4, 8, 0.5), 3, 0.25)
        self.assertEqual((cfg["injection_rate"], cfg["injection_rate_uses_flits"]), (0.125, 1))
        self.assertEqual((cfg["num_vcs"], cfg["seed"]), (4, 3))
        saturation = crosscheck.booksim_config(("fly", 1, 32, crosscheck.SATURATION), 1, 1.0)
        self.assertEqual((saturation["injection_rate"], saturation["routing_function"]), (1.0, "dest_tag"))

    def test_writes_the_keys_runs_the_binary_once_and_reuses_its_output(self):
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "booksim")
            with open(fake, "w") as f:  # prints its configuration file back, and counts its runs
                f.write(f"#!/bin/sh\ncat \"$1\"\necho run >> {d}/runs\n")
            os.chmod(fake, 0o755)
            path = os.path.join(d, "case")
            text = crosscheck.run_booksim_keys(fake, {"k": 4, "traffic": "bad_dragon"}, path, resume=False)
            self.assertEqual(text, "k = 4;\ntraffic = bad_dragon;\n")
            self.assertEqual(crosscheck.run_booksim_keys(fake, {"k": 4}, path, resume=True), text)
            with open(os.path.join(d, "runs")) as f:
                self.assertEqual(f.read().count("run"), 1)

    def test_dragonfly_cases_run_booksims_own_ugal_and_worst_case(self):
        keys = booksim_reference.keys_of(4, ("UGAL-L", "group_shift", 0.5, "accepted"), 2)
        self.assertEqual((keys["routing_function"], keys["traffic"], keys["k"]), ("ugal", "bad_dragon", 4))
        self.assertEqual((keys["num_vcs"], keys["vc_buf_size"], keys["internal_speedup"]), (3, 256, 1.0))
        self.assertEqual((keys["sim_type"], keys["latency_thres"], keys["injection_rate"]), ("throughput", -1.0, 0.5))
        latency = booksim_reference.keys_of(2, ("MIN", "uniform", 0.3, "latency"), 1)
        self.assertEqual((latency["routing_function"], latency["sim_type"]), ("min", "latency"))
        self.assertNotIn("latency_thres", latency)


def link_stats_result(per_lane):
    """Two groups of two routers (a dragonfly-like layout), links 0-1 and 1-0 local in group
    0, 1-2 global, 2-1 global, one injection; two samples of 10 and 5 cycles, two lanes."""
    links = {"kind": ["router", "router", "router", "router", "injection"],
             "src_router": [0, 1, 1, 2, -1], "src_port": [1, 1, 2, 2, -1],
             "dst_router": [1, 0, 2, 1, 0], "dst_port": [1, 1, 2, 2, 0], "terminal": [-1, -1, -1, -1, 0],
             "lanes": [2] * 5}
    per_link = {"flits": [[10, 0, 5, 2, 1], [5, 0, 5, 0, 0]], "occupancy": [[20, 0, 4, 0, 0], [0, 0, 8, 0, 0]],
                "no_credit": [[4, 0, 0, 0, 0], [2, 0, 0, 0, 0]], "lost_arbitration": [[0] * 5, [0] * 5],
                "no_route": [[0, 0, 3, 0, 0], [0, 0, 0, 0, 0]]}
    stats = {"interval": 10, "per_lane": per_lane, "links": links, "sample_ends": [10, 15],
             "routers": {"count": 3, "group": [0, 0, 1]}}
    for metric, rows in per_link.items():  # per lane: all on lane 0
        stats[metric] = [[v for value in row for v in (value, 0)] for row in rows] if per_lane else rows
    return {"link_stats": [stats]}


class LinkPlots(unittest.TestCase):
    def test_totals_are_rates_over_the_selected_samples_and_lanes_add_up(self):
        for per_lane in (False, True):
            stats = plot_links.LinkStats(link_stats_result(per_lane)["link_stats"][0])
            totals = stats.totals(stats.selected())
            self.assertAlmostEqual(totals[0]["utilisation"], 15 / 15)
            self.assertAlmostEqual(totals[0]["occupancy"], 20 / 15)
            self.assertAlmostEqual(totals[0]["no_credit"], 6 / 30)  # of two lanes' cycles
            second = stats.totals(stats.selected(10, None))
            self.assertAlmostEqual(second[2]["utilisation"], 1.0)
            self.assertAlmostEqual(second[2]["no_route"], 0.0)

    def test_the_group_matrix_averages_local_and_global_links(self):
        stats = plot_links.LinkStats(link_stats_result(False)["link_stats"][0])
        matrix = plot_links.group_matrix(stats, stats.totals(stats.selected()))
        self.assertAlmostEqual(matrix[0][0], (1.0 + 0.0) / 2)  # the two local links
        self.assertAlmostEqual(matrix[0][1], 10 / 15)
        self.assertAlmostEqual(matrix[1][0], 2 / 15)
        self.assertIsNone(matrix[1][1])
        self.assertEqual(plot_links.busiest(stats, stats.totals(stats.selected()), 2), [0, 2])

    def test_failed_links_leave_the_group_averages_and_mark_their_group_pair(self):
        result = link_stats_result(False)
        result["link_stats"][0]["links"]["failed"] = [False, True, True, False, False]
        stats = plot_links.LinkStats(result["link_stats"][0])
        matrix = plot_links.group_matrix(stats, stats.totals(stats.selected()))
        self.assertAlmostEqual(matrix[0][0], 1.0)  # the live local link alone
        self.assertIsNone(matrix[0][1])  # its one global link failed
        self.assertEqual(plot_links.cut_group_pairs(stats), [(0, 1)])
        self.assertEqual(plot_links.cut_group_pairs(plot_links.LinkStats(link_stats_result(False)["link_stats"][0])), [])

    def test_writes_one_csv_row_per_link_and_refuses_a_result_without_statistics(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            with open(path, "w") as f:
                json.dump(link_stats_result(True), f)
            with contextlib.redirect_stdout(io.StringIO()):
                plot_links.main([path, "--out", os.path.join(d, "out")])
            with open(os.path.join(d, "out", "links.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), 5)
            self.assertEqual(rows[4]["kind"], "injection")
            self.assertAlmostEqual(float(rows[2]["utilisation"]), 10 / 15, places=5)
            with open(path, "w") as f:
                json.dump({"cycles": 15}, f)
            with self.assertRaises(SystemExit) as e:
                plot_links.main([path, "--out", os.path.join(d, "out")])
            self.assertIn("link_stats_interval", str(e.exception))

    def test_within_a_group_difference_maps_and_colour_scales(self):
        stats = plot_links.LinkStats(link_stats_result(False)["link_stats"][0])
        totals = stats.totals(stats.selected())
        inner, members = plot_links.router_matrix(stats, totals, 0)
        self.assertEqual(members, [0, 1])
        self.assertEqual(inner, [[None, 1.0], [0.0, None]])  # links 0->1 and 1->0, no self links
        self.assertEqual(plot_links.router_matrix(stats, totals, 1), ([[None]], [2]))
        less = plot_links.minus(totals, stats.totals(stats.selected(10, None)))
        self.assertAlmostEqual(less[0]["utilisation"], 1.0 - 5 / 5)
        self.assertAlmostEqual(less[2]["utilisation"], 10 / 15 - 1.0)
        if report_lib._pyplot() is None:
            self.skipTest("python3-matplotlib is missing")
        _, norm = plot_links.Scale(log=True).apply([0.0, 0.15, 0.9, None])
        self.assertAlmostEqual(norm.vmin, 0.15 / 2)  # below the smallest busy link, idle links left out
        self.assertEqual(plot_links.Scale(log=True).shown(0.0), 1e-12)  # drawn at the floor, not masked
        self.assertEqual(plot_links.Scale(log=True).shown(0.2), 0.2)
        cmap, norm = plot_links.Scale(difference=True).apply([-0.2, 0.5])
        self.assertEqual((cmap, norm.vmin, norm.vmax), ("RdBu_r", -0.5, 0.5))  # symmetric about 0
        _, norm = plot_links.Scale(of_data=True).apply([0.1, 0.3])
        self.assertEqual((norm.vmin, norm.vmax), (0.1, 0.3))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            with open(path, "w") as f:
                json.dump(link_stats_result(False), f)
            with contextlib.redirect_stdout(io.StringIO()):
                plot_links.main([path, "--out", os.path.join(d, "out"), "--group", "0", "--log", "--minus", path])
            with open(os.path.join(d, "out", "links.csv")) as f:
                self.assertEqual({float(r["utilisation"]) for r in csv.DictReader(f)}, {0.0})  # a run less itself
            self.assertTrue(os.path.exists(os.path.join(d, "out", "link_heatmap.png")))


class Contention(unittest.TestCase):
    """The contention study's tables from a sweep with known times: the allreduce job's own
    completion (not the run's), paired per seed."""

    def point(self, algorithm, size, alone, seed, cycles, model):
        jobs = [{"name": "allreduce", "completion_cycle": cycles}]
        if not alone:
            jobs.append({"name": "background", "completion_cycle": 10 * cycles})
        axes = {"simulation.seed": seed, contention.ALONE: "allreduce" if alone else "",
                contention.ALGORITHM: algorithm, contention.SIZE: f"{size // 1024} KiB"}
        return axes, {"schedule": {"jobs": jobs}, "model": {"completion_cycle": model}}

    def test_shared_over_alone_and_ring_over_halving_doubling_are_paired_per_seed(self):
        points = []
        for seed, (ring, hd) in enumerate([(100, 50), (200, 100), (300, 150)], start=1):
            points += [self.point("ring", 65536, True, seed, ring, 40),
                       self.point("ring", 65536, False, seed, 2 * ring, 40),
                       self.point("halving_doubling", 65536, True, seed, hd, 40),
                       self.point("halving_doubling", 65536, False, seed, 3 * hd, 40)]
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "c", points)
            cells = contention.collect(contention.lib.read_rows_with_points(os.path.join(out, "c")))
        ring = cells[("ring", 65536)]
        self.assertEqual(ring["alone"].samples, [100, 200, 300])
        self.assertEqual(ring["model"], 40)
        table = contention.table(cells)
        self.assertIn("| ring | 64 KiB | 40 | 200 ± 248 | 400 ± 497 | 2.00 ± 0.00 | 5.00 ± 6.21 |", table)
        self.assertIn("| halving_doubling | 64 KiB | 40 | 100 ± 124 | 300 ± 373 | 3.00 ± 0.00 |", table)
        self.assertIn("| 64 KiB | 1.000 | 2.00 ± 0.00 | 1.33 ± 0.00 |", contention.algorithms_table(cells))


def recovery_point(seed_offset):
    """A point with two ejection links and a router link over four 100-cycle samples, and a
    change at cycle 100 (routing learns at 150) and another at 300."""
    flits = [[20, 20, 5], [10, 10, 0], [20 + seed_offset, 20 - seed_offset, 5], [20, 20, 5]]
    return {"terminals": 2,
            "faults": [{"changes": [{"cycle": 100, "routing_learns": 150}, {"cycle": 300, "routing_learns": 350}]}],
            "link_stats": [{"interval": 100, "sample_ends": [100, 200, 300, 400], "flits": flits,
                            "links": {"kind": ["ejection", "ejection", "router"]}}]}


class Recovery(unittest.TestCase):
    def test_throughput_counts_the_ejection_links_per_terminal_and_cycle(self):
        ends, values = plot_recovery.throughput_series(recovery_point(0))
        self.assertEqual(ends, [100, 200, 300, 400])
        self.assertEqual(values, [0.2, 0.1, 0.2, 0.2])

    def test_recovery_is_the_first_sample_after_which_every_one_is_within_five_percent(self):
        ends, values = plot_recovery.over_seeds([recovery_point(0), recovery_point(2)])
        before, times = plot_recovery.recovery(ends, values, plot_recovery.changes_of(recovery_point(0)))
        self.assertAlmostEqual(before.mean, 0.2)
        self.assertEqual(times, [200, 100])  # the dip at 200 recovers with the sample ending at 300
        # a change whose samples never come back within 5 %
        low = recovery_point(0)
        low["link_stats"][0]["flits"][2] = [10, 10, 0]
        ends, values = plot_recovery.over_seeds([low])
        self.assertEqual(plot_recovery.recovery(ends, values, plot_recovery.changes_of(low))[1], [None, 100])


class RailStudy(unittest.TestCase):
    @staticmethod
    def point(accepted, latency, turns=0.0):
        j = result(0.5, accepted, latency)
        j["message_latency"] = {"mean": latency}
        j["nic"] = {"io_bus_turns": turns}
        return j

    def test_ratios_pair_each_seed_with_its_intact_run(self):
        points = []
        for seed, (intact, lost) in enumerate([(0.4, 0.3), (0.2, 0.16)], start=1):
            for rails, acc in (("intact", intact), ("rail 1 out", lost)):
                points.append(({"allocator": "basic", "measure": "bandwidth", "rails": rails, SEED: seed},
                               self.point(acc, 0)))
                points.append(({"allocator": "basic", "measure": "latency", "rails": rails, SEED: seed},
                               self.point(0.5, 100 * seed if rails == "intact" else 150 * seed, turns=seed)))
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "s", points)
            grid = seed_stats.Grid(out, "s", rail_study.KEYS)
        self.assertEqual(rail_study.degraded_case(grid), "rail 1 out")
        (name, _, _, bandwidth, _, _, latency, below, turns, _), = rail_study.rows(grid, "rail 1 out")
        # per seed, not the ratio of the means (0.767)
        self.assertEqual([round(r, 9) for r in bandwidth.samples], [0.75, 0.8])
        self.assertEqual(latency.samples, [1.5, 1.5])
        self.assertTrue(below)
        self.assertEqual(turns.samples, [1, 2])
        self.assertIn("| basic | 0.300 ± 1.271 | 0.230 ± 0.889 | 0.775 ± 0.318 |", rail_study.table(
            rail_study.rows(grid, "rail 1 out"), "rail 1 out", 2))


class AdaptiveStudy(unittest.TestCase):
    def test_gains_and_their_ratio_pair_each_seed(self):
        # delivered[(routing, ni)] per seed: adaptive gains 0.5, 0.6, 0.55 (plain), 0.8, 0.9, 0.85 (NIFDY)
        delivered = {("dimension order", "plain"): [100, 200, 100], ("negative first", "plain"): [50, 120, 55],
                     ("dimension order", "NIFDY"): [100, 100, 100], ("negative first", "NIFDY"): [80, 90, 85]}
        points = []
        for (routing, ni), values in delivered.items():
            for seed, n in enumerate(values, start=1):
                j = result(0.5, 0.5, 10)
                j.update({"delivered_packets": n, "out_of_order_packets": n // 10 if routing != "dimension order" else 0})
                points.append(({"routing": routing, "ni": ni, "traffic": "heavy", SEED: seed}, j))
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "s", points)
            grid = seed_stats.Grid(out, "s", adaptive_study.KEYS)
        adaptive, ((traffic, _, plain, nifdy, ratio, helps, potential, reorder),) = adaptive_study.condition_rows(grid)
        self.assertEqual(adaptive, "negative first")
        self.assertEqual([round(g, 9) for g in plain.samples], [0.5, 0.6, 0.55])
        self.assertEqual([round(g, 9) for g in nifdy.samples], [0.8, 0.9, 0.85])
        self.assertEqual([round(r, 6) for r in ratio.samples], [1.6, 1.5, 1.545455])
        self.assertTrue(helps.holds)  # [1.42, 1.67]: the interval excludes 1
        self.assertTrue(potential.fails)  # [0.73, 0.97]: below 1
        self.assertEqual([round(r, 9) for r in reorder["negative first"].samples], [0.1, 0.1, 0.090909091])  # 5 of 55


class DiagnosisStudy(unittest.TestCase):
    def test_latency_ratio_pairs_each_seed_against_no_diagnosis(self):
        latency = {"no diagnosis": [40.0, 50.0, 45.0], "diagnosis": [30.0, 40.0, 36.0]}
        points = []
        for host, values in latency.items():
            for seed, mean in enumerate(values, start=1):
                j = result(0.5, 0.5, 10)
                j["latency"] = {"mean": mean, "p99": 2 * mean}
                j["nic"] = {"retransmit_resends": 5.0 if host == "diagnosis" else 50.0}
                log = [{"link": [0, 0], "failed_checks": 5, "diagnosed": 1000 if host == "diagnosis" else None}]
                j["faults"] = [{"network": 0, "crc_log": log}]
                points.append(({"host": host, SEED: seed}, j))
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "s", points)
            grid = seed_stats.Grid(out, "s", diagnosis_study.KEYS)
        by_case = {r[0]: r for r in diagnosis_study.rows(grid)}
        case, cells, cycles, ratio, claim, half = by_case["diagnosis"]
        self.assertEqual([round(r, 6) for r in ratio.samples], [0.75, 0.8, 0.8])
        self.assertTrue(claim.holds)  # [0.71, 0.85]: below 1
        self.assertEqual(cycles, ["1000", "1000", "1000"])
        self.assertEqual(cells["resends"].mean, 5.0)
        self.assertIsNone(by_case["no diagnosis"][3])


class ReplyAckStudy(unittest.TestCase):
    def test_traffic_ratio_pairs_each_seed_and_a_saturated_load_is_not_judged(self):
        # 64 nodes, 1,000-cycle window, 10-flit packets: 640 delivered packets are 0.1 flits/node/cycle.
        points = []
        for case, traffic in (("separate acks", [0.125, 0.12, 0.13]), ("acks on replies", [0.1, 0.1, 0.1])):
            for seed, accepted in enumerate(traffic, start=1):
                for load, delivered in ((0.1, 640), (0.3, 1280)):  # at 0.3: 0.2 of an offered 0.3
                    j = result(0.1 if load == 0.1 else 0.3, accepted, 100.0)
                    j["latency"]["p99"] = 300
                    j.update({"delivered_packets": delivered, "terminals": 64,
                              "config": {"traffic.packet_length": "10", "simulation.measure_cycles": "1000"}})
                    points.append(({"acks": case, LOAD: load, SEED: seed}, j))
        with tempfile.TemporaryDirectory() as out:
            write_sweep(out, "s", points)
            grid = seed_stats.Grid(out, "s", reply_ack_study.KEYS, order={LOAD: float},
                                   below=reply_ack_study.below_saturation)
        (low, cells, below, traffic, latency, claim, half), (high, *rest) = reply_ack_study.load_rows(grid)
        self.assertEqual([round(r, 6) for r in traffic.samples], [0.8, 0.833333, 0.769231])
        self.assertTrue(claim.holds)  # [0.72, 0.88]: below 1
        self.assertAlmostEqual(cells["separate acks"]["data"].mean, 0.1)
        self.assertEqual(rest[2], None)  # 0.2 delivered of 0.3 offered: saturated, not judged
        self.assertFalse(rest[1]["separate acks"])



class PlotSweepKnee(unittest.TestCase):
    def test_the_knee_lies_between_the_last_load_below_saturation_and_the_first_past_it(self):
        def row(lanes, load, below):
            return {"router.lanes": lanes, "traffic.load": load, "latency_mean": 10 * load,
                    "below_saturation": below}
        rows = [row(1, 0.1, True), row(1, 0.3, True), row(1, 0.5, False), row(1, 0.7, False),
                row(4, 0.1, True), row(4, 0.9, True), row(4, 0.5, True),
                row(2, 0.1, False)]
        everything = lambda r: True  # noqa: E731
        past = plot_sweep.past_saturation(rows, "router.lanes", "traffic.load", everything)
        self.assertEqual(past, {1: [0.5, 0.7], 2: [0.1]})
        data = {k: ([0.1, 0.3, 0.5, 0.7] if k == 1 else [0.1, 0.5, 0.9] if k == 4 else [0.1], [0, 0, 0, 0])
                for k in (1, 2, 4)}
        self.assertEqual(plot_sweep.knees(data, past), {1: (0.3, 0.5), 2: (None, 0.1), 4: (0.9, None)})
        self.assertEqual(plot_sweep.ringed({1: ([0.1, 0.5], [1, 5])}, past), ([0.5], [5]))
        self.assertIsNone(plot_sweep.past_saturation([{"traffic.load": 0.1}], None, "traffic.load", everything))
        unjudged = [{"traffic.load": 0.1, "below_saturation": None}]  # closed loop: an empty column
        self.assertIsNone(plot_sweep.past_saturation(unjudged, None, "traffic.load", everything))

    def test_overlays_of_sweeps_series_combinations_and_percentiles(self):
        import subprocess
        import tempfile
        header = "point,status,routing.type,traffic.pattern.type,traffic.load,latency_p50,latency_p99,below_saturation\n"
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, knee in (("first", 0.5), ("second", 0.3)):
                os.makedirs(os.path.join(d, name))
                paths.append(os.path.join(d, name, "results.csv"))
                with open(paths[-1], "w") as f:
                    f.write(header)
                    point = 0
                    for routing in ("min", "ugal"):
                        for load in (0.1, 0.3, 0.5):
                            below = "true" if load < knee else "false"
                            f.write(f"{point},ok,{routing},uniform,{load},{10 + load},{20 + load},{below}\n")
                            point += 1
            command = [sys.executable, "-m", "tools.plot_sweep"] + paths + [
                "--x", "traffic.load", "--y", "latency_p50", "--y", "latency_p99", "--series", "routing.type",
                "--series", "traffic.pattern.type", "--out", os.path.join(d, "fig"), "--logy"]
            run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("first: latency_p99: routing.type = ugal, traffic.pattern.type = uniform: knee between "
                          "0.3 and 0.5", run.stdout)
            self.assertIn("second: latency_p50: routing.type = min, traffic.pattern.type = uniform: knee between "
                          "0.1 and 0.3", run.stdout)
            bad = subprocess.run(command + ["--label", "one"], capture_output=True, text=True, cwd=ROOT)
            self.assertIn("--label: 1 given for 2 CSV files", bad.stderr)


if __name__ == "__main__":
    unittest.main()
