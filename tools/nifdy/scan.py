"""Fig. 9 of the NIFDY report: the radix-sort scan phase (a chain of 64 processors, each
forwarding every value it receives), with and without delays between sends, with and
without Table 2's poll cost, and where the processors' cycles went."""
import os

from tools.nifdy.common import NEGLIGIBLE, over, per_network
from tools.report import verdict as vd
from tools.report.lib import bar_plot
from tools.report.seed_stats import Value

SCAN_NETWORKS = [("full_fat_tree", "full fat tree"), ("store_and_forward_fat_tree", "S&F fat tree"),
                 ("mesh_8x8", "8x8 mesh"), ("butterfly", "butterfly")]


POLLS = ("no poll cost", "poll 22")  # Table 2's "Active message poll (no message) 22", off and on


def scan_claims(cycles, labels, poll):
    """Fig. 9's claims on the runs with one poll setting."""
    gain = {(n, ni): over(cycles[(n, poll, ni, "no delay")], cycles[(n, poll, ni, "with delay")])
            for n in labels for ni in ("no NIFDY", "NIFDY")}
    nifdy_gain = {n: over(cycles[(n, poll, "no NIFDY", "no delay")], cycles[(n, poll, "NIFDY", "no delay")])
                  for n in labels}
    helped = [vd.greater(cycles[(n, poll, ni, "no delay")], cycles[(n, poll, ni, "with delay")])
              for n in labels for ni in ("no NIFDY", "NIFDY")]
    rows = [
        (f"\"While adding delays between successive sends helped in all cases\" ({poll})",
         "; ".join(f"{n}: ×{gain[(n, 'no NIFDY')].text(2)} without NIFDY, ×{gain[(n, 'NIFDY')].text(2)} with"
                   for n in labels), vd.all_hold(*helped), "helped: fewer cycles with the delay, paired by seed"),
        (f"\"it was more critical when NIFDY was not included\" ({poll})",
         "delay's gain without / with NIFDY: " + ", ".join(
             f"{n} {gain[(n, 'no NIFDY')].text(2)} / {gain[(n, 'NIFDY')].text(2)}" for n in labels),
         vd.all_hold(*(vd.greater(gain[(n, "no NIFDY")], gain[(n, "NIFDY")]) for n in labels)), "paired by seed"),
    ]
    if "S&F fat tree" in labels and "full fat tree" in labels:
        rows.append(("\"Networks with higher latencies, e.g., the store and forward fat tree, get a bigger gain from "
                     f"NIFDY, than those with lower latencies, like the full fat tree\" ({poll})",
                     f"NIFDY's speed-up without delays: S&F fat tree ×{nifdy_gain['S&F fat tree'].text(2)}, full fat "
                     f"tree ×{nifdy_gain['full fat tree'].text(2)}",
                     vd.all_hold(vd.greater(nifdy_gain["S&F fat tree"], nifdy_gain["full fat tree"]),
                                 vd.greater(nifdy_gain["S&F fat tree"], Value([1.0] * len(nifdy_gain["S&F fat tree"].samples)))),
                     "our reading: a gain is a speed-up above 1; paired by seed"))
    return rows


def same_for_every_seed(values):
    """How many of the runs gave one cycle count for every seed (their ± 0 is exact)."""
    same = sum(len(set(v.samples)) == 1 for v in values)
    if not same:
        return "Every run's seeds gave different cycle counts."
    return (f"{same} of the {len(values)} runs gave the same cycle count for every seed: the chain and its routes "
            "are fixed, so a seed can act only through ties broken at random, and in these runs it changed nothing; "
            "their ± 0 is exact, not a narrow interval, and a verdict on them rests on that one value.")


def fig9(out, rep):
    cycles = per_network(out, "fig09_scan_", SCAN_NETWORKS, lambda r: (r["poll"], r["ni"], r["delay"]),
                         lambda j: j["last_delivery"])
    labels = [label for _, label in SCAN_NETWORKS if (label, POLLS[0], "no NIFDY", "no delay") in cycles]
    runs = [("no NIFDY", "no delay"), ("no NIFDY", "with delay"), ("NIFDY", "no delay"), ("NIFDY", "with delay")]
    rep.section("Fig. 9 — radix-sort scan phase",
                "Cycles until the last processor of the 64-processor chain has received every value "
                "(quick: 64 values, a 6-bit radix; `--full`: 256). CM-5 costs: send 46, receive 56 cycles; "
                "the delay is 60 cycles after each send. Every run without a poll cost and with Table 2's "
                "22-cycle poll that finds no message (an idle processor is busy that long per poll).")
    rep.table(["network", "poll"] + [f"{ni}, {d}" for ni, d in runs],
              [[n, poll] + [cycles[(n, poll, ni, d)].text(0) for ni, d in runs] for n in labels for poll in POLLS])
    rep.text(same_for_every_seed([cycles[(n, poll, ni, d)] for n in labels for poll in POLLS for ni, d in runs]))
    png = bar_plot(os.path.join(out, "fig09_radix_scan"), labels,
                   {f"{ni}, {d}": [cycles[(n, POLLS[0], ni, d)] for n in labels] for ni, d in runs},
                   "cycles for one scan phase", "Fig. 9: radix-sort scan, 64 processors (no poll cost)")
    rows = []
    for poll in POLLS:
        rows += scan_claims(cycles, labels, poll)
    coalesce = per_network(out, "fig09b_coalesce_", [("full_fat_tree", "full fat tree")], lambda r: (r["ni"],),
                           lambda j: j["last_delivery"])
    ratio = over(coalesce[("full fat tree", "NIFDY")], coalesce[("full fat tree", "no NIFDY")])
    rows.append(("Coalesce phase: \"Results for the coalesce phase (not shown) were virtually identical with and "
                 "without NIFDY\"", f"full fat tree, 512 keys per processor: {coalesce[('full fat tree', 'no NIFDY')].text(0)} "
                 f"cycles without NIFDY, {coalesce[('full fat tree', 'NIFDY')].text(0)} with (×{ratio.text(3)})",
                 vd.within_with_readings([ratio], NEGLIGIBLE, center=1.0),
                 f"our reading of \"virtually identical\": within {NEGLIGIBLE:.0%}"))
    rep.claims(rows)
    rep.figure(png, "Fig. 9")
    activity(out, rep, labels, cycles)


ACTIVITY = [  # counter, column
    ("processor_pool_full_poll_cycles", "polling, pool full"),
    ("processor_slot_lag_cycles", "slot seen late"),
    ("processor_pool_full_idle_cycles", "idle, pool full"),
]


def activity(out, rep, labels, cycles):
    """Where the processors' cycles went in the runs without delays: per processor, cycles
    spent polling while its outgoing pool was full, cycles by which it saw a slot freed in its
    full pool late because it was in a poll, and cycles idle with a full pool (the NI's
    counters)."""
    per = {c: per_network(out, "fig09_scan_", SCAN_NETWORKS, lambda r: (r["poll"], r["ni"], r["delay"]),
                          lambda j, c=c: j["nic"][c] / j["terminals"]) for c, _ in ACTIVITY}
    rep.text("The mechanism, from the processors' counters (runs without delays; cycles per processor): a sender "
             "whose outgoing pool is full and which has nothing to receive polls, and sees the slot the network "
             "frees only when its poll ends, which spaces its sends as the paper's inserted delay does.")
    rows = [[n, poll, ni, cycles[(n, poll, ni, "no delay")].text(0)]
            + [per[c][(n, poll, ni, "no delay")].text(0) for c, _ in ACTIVITY]
            for n in labels for poll in POLLS for ni in ("no NIFDY", "NIFDY")]
    rep.table(["network", "poll", "NI", "cycles"] + [col for _, col in ACTIVITY], rows)
    lag = {(n, ni): per["processor_slot_lag_cycles"][(n, POLLS[1], ni, "no delay")] for n in labels
           for ni in ("no NIFDY", "NIFDY")}
    speed = {(n, ni): over(cycles[(n, POLLS[0], ni, "no delay")], cycles[(n, POLLS[1], ni, "no delay")])
             for n in labels for ni in ("no NIFDY", "NIFDY")}
    rep.text("With the poll cost, per processor: " + "; ".join(
        f"{n}: slots seen late by {lag[(n, 'no NIFDY')].text(0)} cycles without NIFDY and {lag[(n, 'NIFDY')].text(0)} "
        f"with it, the scan ×{speed[(n, 'no NIFDY')].text(2)} and ×{speed[(n, 'NIFDY')].text(2)} as fast as without "
        "the poll cost" for n in labels) + ".")
