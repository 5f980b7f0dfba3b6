"""Matrix-product flops of StableHLO programs: 2·M·N·K summed over every dot_general, per chip.

XLA's TPU cost analysis is not a flop count for a partitioned program (a product split over 8
chips counts about half of its 2·M·N·K / 8 per chip), so the bench compares programs by the
products their text asks for instead. A product inside a `stablehlo.while` counts once per trip:
the trip count is the i32 constant its condition compares the counter LT against (the loops Javelin
and `jax.lax.scan` print), nested loops multiplying.

Usage: stablehlo_dot_flops.py --partitions 8 program.mlir ...
"""
import argparse
import math
import re
import sys
from pathlib import Path

DOT = re.compile(
    r"stablehlo\.dot_general [^,]+, [^,]+, (?:batching_dims = \[[\d, ]*\] x \[[\d, ]*\], )?"
    r"contracting_dims = \[([\d, ]*)\] x \[[\d, ]*\][^:]*: "
    r"\(tensor<([\dx]+)x\w+>, tensor<[\dx]+x\w+>\) -> tensor<([\dx]+)x\w+>")


def dims(text):
    return [int(d) for d in text.split("x")]


TRIPS = re.compile(r"stablehlo\.constant dense<(\d+)> : tensor<i32>")


class Loop:
    """One `stablehlo.while` being read: the brace depth it opened at, its trips once known."""

    def __init__(self, depth):
        self.depth, self.trips, self.candidate, self.in_body = depth, None, None, False


def product_flops(text):
    """(dot_general ops in the text, ops executed, 2·M·N·K summed over executions)."""
    total, count, executed, depth, loops = 0, 0, 0, 0, []
    for line in text.splitlines():
        s = line.strip()
        if "stablehlo.while" in s:
            loops.append(Loop(depth))
        elif loops and not loops[-1].in_body:
            loop = loops[-1]
            if m := TRIPS.search(s):
                loop.candidate = int(m.group(1))
            if "stablehlo.compare" in s and " LT," in s:
                loop.trips = loop.candidate
            if s.startswith(("}, {", "} do {")):
                if loop.trips is None:
                    raise ValueError(f"a while loop's trip count is not a constant: {line}")
                loop.in_body = True
        times = math.prod(loop.trips for loop in loops if loop.in_body)
        for m in DOT.finditer(s):
            lhs, out = dims(m.group(2)), dims(m.group(3))
            k = math.prod(lhs[int(c)] for c in m.group(1).split(","))
            total += 2 * math.prod(out) * k * times
            count += 1
            executed += times
        depth += s.count("{") - s.count("}")
        while loops and loops[-1].in_body and depth <= loops[-1].depth:
            loops.pop()
    return count, executed, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--partitions", type=int, default=1, help="chips the program runs over")
    ap.add_argument("programs", nargs="+")
    args = ap.parse_args()
    for p in args.programs:
        path = Path(p)
        if not path.is_file():
            print(f"stablehlo_dot_flops.py: no such file {p}", file=sys.stderr)
            return 2
        text = path.read_text()
        try:
            count, executed, total = product_flops(text)
        except ValueError as e:
            print(f"stablehlo_dot_flops.py: {p}: {e}", file=sys.stderr)
            return 2
        if count != text.count("stablehlo.dot_general"):
            print(f"stablehlo_dot_flops.py: {p}: could not read every dot_general", file=sys.stderr)
            return 2
        gflop = total / args.partitions / 1e9
        print(f"{p}: {count} products ({executed} run), {gflop:.1f} GFLOP per chip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
