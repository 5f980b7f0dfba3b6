"""Matrix-product flops of StableHLO programs: 2·M·N·K summed over every dot_general, per chip.

XLA's TPU cost analysis is not a flop count for a partitioned program (a product split over 8
chips counts about half of its 2·M·N·K / 8 per chip), so the bench compares programs by the
products their text asks for instead.

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


def product_flops(text):
    """(count of dot_general ops, 2·M·N·K summed over them) for one program's text."""
    total, count = 0, 0
    for m in DOT.finditer(text):
        lhs, out = dims(m.group(2)), dims(m.group(3))
        k = math.prod(lhs[int(c)] for c in m.group(1).split(","))
        total += 2 * math.prod(out) * k
        count += 1
    return count, total


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
        count, total = product_flops(text)
        if count != text.count("stablehlo.dot_general"):
            print(f"stablehlo_dot_flops.py: {p}: could not read every dot_general", file=sys.stderr)
            return 2
        print(f"{p}: {count} products, {total / args.partitions / 1e9:.1f} GFLOP per chip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
