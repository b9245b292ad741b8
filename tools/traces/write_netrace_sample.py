#!/usr/bin/env python3
"""Writes the sample Netrace trace of experiments/workloads/ (docs/workloads.md).

A small cache-coherence-like workload on 16 tiles: each core's L1 sends read requests (8
bytes) to the L2 bank of the address's home tile, which answers with the line (72 bytes);
every tenth request is a write-back of a line (72 bytes) answered by an acknowledgement (8
bytes). A response depends on its request, and a core's next request on its previous
response, so the trace is closed loop. Two regions, split at half the cycles.

Usage: write_netrace_sample.py OUT.tra.bz2 [--cores 16] [--transactions 40] [--seed 1]
"""
import argparse
import bz2
import random
import struct

MAGIC = 0x484A5455
READ_REQ, READ_RESP, WRITEBACK, WRITE_RESP = 1, 2, 6, 5
L1D, L2 = 0, 2


def transactions(cores, count, rng):
    """Per core, its packets as (cycle, core, kind, src, dst, node types, address), in order."""
    events = []
    for core in range(cores):
        cycle = rng.randrange(0, 50)
        for k in range(count):
            address = rng.randrange(0, 1 << 20) * 64
            home = (address >> 6) % cores
            write = k % 10 == 9
            request = WRITEBACK if write else READ_REQ
            response = WRITE_RESP if write else READ_RESP
            events.append((cycle, core, request, core, home, L1D << 4 | L2, address))
            cycle += 10 + rng.randrange(0, 20)  # the L2's access in the traced system
            events.append((cycle, core, response, home, core, L2 << 4 | L1D, address))
            cycle += 5 + rng.randrange(0, 100)  # the core's work before its next miss
    return events


def build(cores, count, seed):
    rng = random.Random(seed)
    events = transactions(cores, count, rng)
    # Each core's packets form a chain: packet i of a core waits for packet i - 1.
    order = sorted(range(len(events)), key=lambda i: (events[i][0], i))
    ident = {e: n for n, e in enumerate(order)}
    per_core = {}
    for i, e in enumerate(events):
        per_core.setdefault(e[1], []).append(i)
    dependents = {i: [] for i in range(len(events))}
    for chain in per_core.values():
        for a, b in zip(chain, chain[1:]):
            dependents[a].append(ident[b])
    packets = []
    for e in order:
        cycle, _, kind, src, dst, types, address = events[e]
        deps = dependents[e]
        record = struct.pack("<QIIBBBBB", cycle, ident[e], address & 0xFFFFFFFF, kind, src, dst, types, len(deps))
        packets.append((cycle, record + b"".join(struct.pack("<I", d) for d in deps)))
    return packets


def header(name, nodes, cycles, count, notes, regions):
    h = struct.pack("<If30sBxQQII8x", MAGIC, 1.0, name.encode(), nodes, cycles, count, len(notes), len(regions))
    assert len(h) == 72
    return h + notes + b"".join(struct.pack("<QQQ", *r) for r in regions)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--cores", type=int, default=16)
    parser.add_argument("--transactions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    packets = build(args.cores, args.transactions, args.seed)
    last = packets[-1][0]
    split = last // 2
    first = [p for p in packets if p[0] < split]
    offset = sum(len(p[1]) for p in first)
    regions = [(0, split, len(first)), (offset, last - split, len(packets) - len(first))]
    notes = b"icnsim sample: L1 misses to L2 banks\0"
    body = header("icnsim sample", args.cores, last, len(packets), notes, regions)
    body += b"".join(p[1] for p in packets)
    with open(args.out, "wb") as out:
        out.write(bz2.compress(body, 9))


if __name__ == "__main__":
    main()
