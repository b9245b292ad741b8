#!/usr/bin/env python3
"""Writes a random regular graph (a Jellyfish network: Singla et al., NSDI 2012) in icnsim's
graph file format (topology.type = "graph"; docs/topologies.md).

  python3 -m tools.graphs.random_regular ROUTERS DEGREE TERMINALS SEED > net.graph

Jellyfish's construction: join random pairs of routers with free ports that are not yet
neighbours until no such pair is left; then, while a router has two free ports, break a
random link (x, y) and join the router to both x and y. The same arguments give the same file.
"""
import random
import sys


def random_regular(routers, degree, seed):
    rng = random.Random(seed)
    links = set()
    free = {r: degree for r in range(routers)}

    def joinable():
        open_ = [r for r in range(routers) if free[r] > 0]
        return [(a, b) for i, a in enumerate(open_) for b in open_[i + 1:] if (a, b) not in links]

    while True:
        pairs = joinable()
        if not pairs:
            break
        a, b = rng.choice(pairs)
        links.add((a, b))
        free[a] -= 1
        free[b] -= 1
    for r in range(routers):
        while free[r] >= 2:
            candidates = sorted(l for l in links if r not in l and (min(r, l[0]), max(r, l[0])) not in links
                                and (min(r, l[1]), max(r, l[1])) not in links)
            if not candidates:
                break
            x, y = rng.choice(candidates)
            links.remove((x, y))
            links.add((min(r, x), max(r, x)))
            links.add((min(r, y), max(r, y)))
            free[r] -= 2
    return sorted(links)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    routers, degree, terminals, seed = (int(a) for a in argv)
    print(f"# Random regular graph (Jellyfish): {routers} routers of degree {degree}, {terminals} terminals each,")
    print(f"# seed {seed}: python3 -m tools.graphs.random_regular {routers} {degree} {terminals} {seed}")
    print(f"routers {routers}")
    print(f"terminals {terminals}")
    for a, b in random_regular(routers, degree, seed):
        print(f"link {a} {b}")


if __name__ == "__main__":
    main(sys.argv[1:])
