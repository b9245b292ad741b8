#!/usr/bin/env python3
"""Draws a run's link statistics (simulation.link_stats_interval; docs/link_statistics.md).

  python3 -m tools.links.plot_links result.json --out DIR [--network 0] [--top 8]
      [--from CYCLE] [--to CYCLE] [--title TEXT] [--log | --range-of-data] [--group G] [--minus OTHER.json]

Writes into DIR:
  links.csv         one row per link: its ends, utilisation (flits per cycle), mean buffer
                    occupancy and the share of cycles stalled by each cause, over the samples
                    ending in (--from, --to];
  link_heatmap.*    router-to-router utilisation on the topology's layout: a group-to-group
                    matrix for topologies with groups (dragonfly: the diagonal holds the
                    local links), each link drawn beside its channel on a 2-D grid (mesh,
                    torus, HyperX), otherwise every link's utilisation in decreasing order;
  link_series.*     the busiest router-to-router links over time: utilisation, and the
                    share of their lanes' cycles stalled by any of the three causes.
Colours run from 0 to 1 flit per cycle; --range-of-data spreads them over the values drawn and
--log takes a logarithmic scale (a link at 0.15 no longer looks like an idle one). --group G
draws, for a topology with groups, the matrix of group G's routers (its local links) instead of
the group-to-group one. --minus OTHER.json draws the difference of this run's utilisation less
OTHER's (a run of the same network), link by link, on a diverging scale; links.csv then holds
the differences.
Figures need Debian's python3-matplotlib (/usr/bin/python3); links.csv does not.
"""
import argparse
import csv
import io
import json
import os
import sys

from tools.report import lib as report_lib

METRICS = ("flits", "occupancy", "no_credit", "lost_arbitration", "no_route")
STALLS = ("no_credit", "lost_arbitration", "no_route")


class LinkStats:
    """One network's link statistics from a result: the links, the routers' layout and the
    counts per sample, summed over lanes when the run kept them per lane."""

    def __init__(self, stats):
        self.links = stats["links"]
        self.routers = stats["routers"]
        self.ends = stats["sample_ends"]
        self.count = len(self.links["kind"])
        lanes = self.links["lanes"]
        self.values = {m: [self._per_link(row, lanes, stats["per_lane"]) for row in stats[m]] for m in METRICS}

    @staticmethod
    def _per_link(row, lanes, per_lane):
        if not per_lane:
            return row
        out, slot = [], 0
        for n in lanes:
            out.append(sum(row[slot:slot + n]))
            slot += n
        return out

    def starts(self):
        return [0] + self.ends[:-1]

    def selected(self, first=None, last=None):
        """Indexes of the samples ending in (first, last]."""
        return [i for i, end in enumerate(self.ends)
                if (first is None or end > first) and (last is None or end <= last)]

    def totals(self, samples):
        """Per link: utilisation, mean occupancy and each stall cause as a share of the
        cycles of its lanes, over the given samples."""
        cycles = sum(self.ends[i] - self.starts()[i] for i in samples)
        rows = []
        for link in range(self.count):
            lane_cycles = max(1, cycles * self.links["lanes"][link])
            sums = {m: sum(self.values[m][i][link] for i in samples) for m in METRICS}
            rows.append({
                "utilisation": sums["flits"] / cycles if cycles else 0.0,
                "occupancy": sums["occupancy"] / cycles if cycles else 0.0,
                "no_credit": sums["no_credit"] / lane_cycles,
                "lost_arbitration": sums["lost_arbitration"] / lane_cycles,
                "no_route": sums["no_route"] / lane_cycles,
            })
        return rows

    def router_links(self):
        return [i for i in range(self.count) if self.links["kind"][i] == "router"]

    def failed(self, link):
        """Whether the link had failed ([faults]; a result without faults has no such column)."""
        return bool(self.links.get("failed", [False] * self.count)[link])


def load(path, network=0):
    try:
        with open(path) as f:
            result = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{path}: cannot read a result: {e}")
    series = result.get("link_stats")
    if not series:
        sys.exit(f"{path}: no link statistics: run with simulation.link_stats_interval > 0")
    if not 0 <= network < len(series):
        sys.exit(f"{path}: --network {network}: the result has networks 0 to {len(series) - 1}")
    return LinkStats(series[network])


def minus(totals, other):
    """Per link, each statistic of `totals` less that of `other` (the same network's links)."""
    return [{k: t[k] - o[k] for k in t} for t, o in zip(totals, other)]


def router_matrix(stats, totals, group_id):
    """Utilisation of the links between group `group_id`'s routers, source by destination
    (None where no link joins them), and those routers; or None without groups."""
    group = stats.routers.get("group")
    if group is None:
        return None
    members = [r for r, g in enumerate(group) if g == group_id]
    if not members:
        sys.exit(f"--group {group_id}: the groups are 0 to {max(group)}")
    index = {r: i for i, r in enumerate(members)}
    matrix = [[None] * len(members) for _ in members]
    for link in stats.router_links():
        a, b = stats.links["src_router"][link], stats.links["dst_router"][link]
        if a in index and b in index and not stats.failed(link):
            matrix[index[a]][index[b]] = (matrix[index[a]][index[b]] or 0.0) + totals[link]["utilisation"]
    return matrix, members


class Scale:
    """The colour scale of a map: 0 to 1 flit per cycle, or over the data, or logarithmic; a
    difference map's is diverging and symmetric about 0."""

    def __init__(self, log=False, of_data=False, difference=False):
        self.log, self.of_data, self.difference = log, of_data, difference

    def apply(self, values):
        """(cmap, norm) for these values (None and NaN left out)."""
        from matplotlib import colors
        shown = [v for v in values if v is not None and v == v]
        if self.difference:
            top = max([abs(v) for v in shown] + [1e-9])
            return "RdBu_r", colors.Normalize(-top, top)
        low, high = (min(shown, default=0.0), max(shown, default=1.0)) if self.of_data else (0.0, 1.0)
        if self.log:  # idle links (0) take the lowest colour, below every busy link's
            positive = [v for v in shown if v > 1e-9]  # not the idle links' floor (shown)
            low = max(min(positive, default=1e-3), 1e-4)
            return "viridis", colors.LogNorm(low / 2, max(high, low * 10), clip=True)
        return "viridis", colors.Normalize(low, high if high > low else low + 1e-9)

    def shown(self, value):
        """A value as drawn: on a log scale an idle link's 0 at the scale's floor, not masked
        as if there were no link."""
        return 1e-12 if self.log and not self.difference and value is not None and value <= 0 else value

    def label(self, what):
        if self.difference:
            return "utilisation, this run less the other (flits/cycle)"
        return what + (", log scale" if self.log else "")


def group_matrix(stats, totals):
    """Mean utilisation of the router-to-router links from group i to group j (local links
    on the diagonal) that have not failed, None where none joins them; or None without
    groups."""
    group = stats.routers.get("group")
    if group is None:
        return None
    g = max(group) + 1
    sums = [[0.0] * g for _ in range(g)]
    counts = [[0] * g for _ in range(g)]
    for link in stats.router_links():
        if stats.failed(link):
            continue
        a = group[stats.links["src_router"][link]]
        b = group[stats.links["dst_router"][link]]
        sums[a][b] += totals[link]["utilisation"]
        counts[a][b] += 1
    return [[sums[a][b] / counts[a][b] if counts[a][b] else None for b in range(g)] for a in range(g)]


def cut_group_pairs(stats):
    """(source group, destination group) pairs whose every link failed ([faults])."""
    group = stats.routers.get("group")
    if group is None:
        return []
    live, dead = set(), set()
    for link in stats.router_links():
        pair = (group[stats.links["src_router"][link]], group[stats.links["dst_router"][link]])
        (dead if stats.failed(link) else live).add(pair)
    return sorted(dead - live)


def write_csv(path, stats, totals):
    columns = ["link", "kind", "src_router", "src_port", "dst_router", "dst_port", "terminal", "lanes",
               "utilisation", "occupancy", "no_credit", "lost_arbitration", "no_route", "failed"]

    def write(f):
        text = io.StringIO()
        w = csv.writer(text, lineterminator="\n")
        w.writerow(columns)
        for link, t in enumerate(totals):
            ends = [stats.links[k][link] for k in columns[1:8]]
            w.writerow([link] + ends + [f"{t[k]:.6g}" for k in columns[8:-1]] + [int(stats.failed(link))])
        f.write(text.getvalue().encode())

    report_lib.write_atomic(path, write)


def busiest(stats, totals, top):
    return sorted(stats.router_links(), key=lambda i: (-totals[i]["utilisation"], i))[:top]


def link_label(stats, link):
    return f"{stats.links['src_router'][link]}:{stats.links['src_port'][link]}->{stats.links['dst_router'][link]}"


def draw_heatmap(path, stats, totals, title, scale, group_id=None):
    plt = report_lib._pyplot()
    if plt is None:
        return None
    matrix = group_matrix(stats, totals)
    coordinates = stats.routers.get("coordinates")
    fig, ax = plt.subplots(figsize=(6.4, 5.4))
    if matrix is not None and group_id is not None:
        inner, members = router_matrix(stats, totals, group_id)
        shown = [[float("nan") if v is None else scale.shown(v) for v in row] for row in inner]
        cmap, norm = scale.apply([v for row in shown for v in row])
        image = ax.imshow(shown, cmap=cmap, norm=norm, origin="lower")
        ax.set_xticks(range(len(members)), [str(r) for r in members], fontsize="x-small")
        ax.set_yticks(range(len(members)), [str(r) for r in members], fontsize="x-small")
        ax.set_xlabel(f"destination router (group {group_id})")
        ax.set_ylabel("source router")
        fig.colorbar(image, ax=ax, label=scale.label("utilisation of the local link (flits/cycle)"))
    elif matrix is not None:
        cut = cut_group_pairs(stats)
        shown = [[float("nan") if v is None else scale.shown(v) for v in row] for row in matrix]
        cmap, norm = scale.apply([v for row in shown for v in row])
        image = ax.imshow(shown, cmap=cmap, norm=norm, origin="lower")
        if cut:  # group pairs whose every link failed
            ax.scatter([b for _, b in cut], [a for a, _ in cut], marker="x", color="red", s=18,
                       label="every link failed")
            ax.legend(loc="upper right", fontsize="x-small")
        ax.set_xlabel("destination group")
        ax.set_ylabel("source group")
        fig.colorbar(image, ax=ax, label=scale.label("mean utilisation of the links (flits/cycle); diagonal: local"))
    elif coordinates and len(coordinates[0]) == 2:
        image = _draw_grid(plt, ax, stats, totals, coordinates, scale)
        fig.colorbar(image, ax=ax, label=scale.label("utilisation (flits/cycle)"))
    else:
        values = sorted((totals[i]["utilisation"] for i in stats.router_links()), reverse=True)
        ax.plot(range(len(values)), values)
        ax.set_xlabel("router-to-router links, busiest first")
        ax.set_ylabel(scale.label("utilisation (flits/cycle)"))
        if scale.log and not scale.difference:
            ax.set_yscale("log")
        elif not scale.difference:
            ax.set_ylim(0, 1.05)
    ax.set_title(title, fontsize="small")
    return report_lib.save_figure(fig, path)


def _draw_grid(plt, ax, stats, totals, coordinates, scale):
    """Each router-to-router link as a segment from its source towards its destination,
    shifted to its right so the two directions of a channel pair sit side by side."""
    from matplotlib.collections import LineCollection
    segments, colours, dead = [], [], []
    for link in stats.router_links():
        (x0, y0) = coordinates[stats.links["src_router"][link]]
        (x1, y1) = coordinates[stats.links["dst_router"][link]]
        dx, dy = x1 - x0, y1 - y0
        length = max(1e-9, (dx * dx + dy * dy) ** 0.5)
        if length > 1.5:  # a wrap-around channel: a stub leaving the edge
            dx, dy, length = -dx / length * 0.9, -dy / length * 0.9, 0.9
        ox, oy = dy / length * 0.12, -dx / length * 0.12
        segment = [(x0 + 0.15 * dx + ox, y0 + 0.15 * dy + oy), (x0 + 0.85 * dx + ox, y0 + 0.85 * dy + oy)]
        if stats.failed(link):
            dead.append(segment)
            continue
        segments.append(segment)
        colours.append(scale.shown(totals[link]["utilisation"]))
    cmap, norm = scale.apply(colours)
    lines = LineCollection(segments, array=colours, cmap=cmap, norm=norm, linewidths=3)
    ax.add_collection(lines)
    if dead:  # failed links: red and dashed, outside the colour scale
        ax.add_collection(LineCollection(dead, colors="red", linewidths=1.5, linestyles="dashed",
                                         label="failed link"))
        ax.legend(loc="upper right", fontsize="x-small")
    xs = [c[0] for c in coordinates]
    ys = [c[1] for c in coordinates]
    ax.scatter(xs, ys, s=12, color="black", zorder=3)
    ax.set_xlim(min(xs) - 1, max(xs) + 1)
    ax.set_ylim(min(ys) - 1, max(ys) + 1)
    ax.set_aspect("equal")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    return lines


def draw_series(path, stats, links, samples, title):
    plt = report_lib._pyplot()
    if plt is None:
        return None
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.4, 6.0), sharex=True)
    starts = stats.starts()
    for link in links:
        xs = [stats.ends[i] for i in samples]
        cycles = [stats.ends[i] - starts[i] for i in samples]
        lanes = stats.links["lanes"][link]
        top.plot(xs, [stats.values["flits"][i][link] / c for i, c in zip(samples, cycles)],
                 label=link_label(stats, link))
        stalled = [sum(stats.values[m][i][link] for m in STALLS) / (c * lanes) for i, c in zip(samples, cycles)]
        bottom.plot(xs, stalled)
    top.set_ylabel("utilisation (flits/cycle)")
    top.set_ylim(0, 1.05)
    top.legend(fontsize="x-small", ncol=2, title="router:port->router")
    bottom.set_ylabel("lane-cycles stalled\n(no credit, lost arbitration, no route)", fontsize="small")
    bottom.set_ylim(0, 1.05)
    bottom.set_xlabel("cycle (end of each sample)")
    top.set_title(title, fontsize="small")
    return report_lib.save_figure(fig, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result", help="a run's JSON result (icnsim run --json, or a sweep's points/*.json)")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--network", type=int, default=0, help="which network of a multi-network run")
    ap.add_argument("--top", type=int, default=8, help="links in the time series")
    ap.add_argument("--from", dest="first", type=int, help="only samples ending after this cycle")
    ap.add_argument("--to", dest="last", type=int, help="only samples ending at or before this cycle")
    ap.add_argument("--title", default="", help="figure titles")
    colours = ap.add_mutually_exclusive_group()
    colours.add_argument("--log", action="store_true", help="a logarithmic colour scale")
    colours.add_argument("--range-of-data", action="store_true", help="colours over the values drawn, not 0 to 1")
    ap.add_argument("--group", type=int, help="the routers of this group and their local links")
    ap.add_argument("--minus", metavar="OTHER", help="draw this run less OTHER (a result of the same network)")
    a = ap.parse_args(argv)
    stats = load(a.result, a.network)
    samples = stats.selected(a.first, a.last)
    if not samples:
        sys.exit(f"{a.result}: no sample ends in ({a.first}, {a.last}]; samples end at {stats.ends}")
    totals = stats.totals(samples)
    if a.minus:
        other = load(a.minus, a.network)
        if other.links != stats.links:
            sys.exit(f"--minus {a.minus}: its network's links are not those of {a.result}")
        totals = minus(totals, other.totals(other.selected(a.first, a.last)))
    if a.group is not None and stats.routers.get("group") is None:
        sys.exit(f"--group {a.group}: {a.result}'s topology has no groups")
    os.makedirs(a.out, exist_ok=True)
    write_csv(os.path.join(a.out, "links.csv"), stats, totals)
    scale = Scale(a.log, a.range_of_data, bool(a.minus))
    drawn = [draw_heatmap(os.path.join(a.out, "link_heatmap"), stats, totals, a.title, scale, a.group),
             draw_series(os.path.join(a.out, "link_series"), stats, busiest(stats, totals, a.top), samples, a.title)]
    if None in drawn:
        print("figures not drawn: python3-matplotlib is missing (bash scripts/install-deps.sh --with-plots)")
    for link in busiest(stats, totals, 3):
        t = totals[link]
        print(f"{link_label(stats, link)}: utilisation {t['utilisation']:.3f}, occupancy {t['occupancy']:.2f} flits, "
              f"no credit {t['no_credit']:.3f}, lost arbitration {t['lost_arbitration']:.3f}, "
              f"no route {t['no_route']:.3f}")
    print(f"wrote {os.path.join(a.out, 'links.csv')}" + ("" if None in drawn else ", link_heatmap, link_series"))


if __name__ == "__main__":
    main()
