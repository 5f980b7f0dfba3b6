"""VeRL's own Python graders on the same inputs as the Java RewardsBench: GSM8K reference
solutions (gsm8k.compute_score, strict) and MATH-500 full solutions (math_reward.compute_score),
single process. Prints median responses/s of 5 one-second rounds.

Run from the repository root:  .venv/bin/python tools/rewards_bench.py
"""

import json
import os
import statistics
import time

from rewards_verl import load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "datasets")


def rows(path):
    with open(os.path.join(DATA, path), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def throughput(fn, inputs):
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < 1.0:
        for response, gt in inputs:
            fn(response, gt)
            n += 1
    return n / (time.perf_counter() - t0)


def main():
    gsm8k = load("gsm8k")
    math_reward = load("math_reward")
    g = [(r["answer"], r["answer"].split("#### ")[-1]) for r in rows("gsm8k/test.jsonl")]
    m = [(r["solution"], r["answer"]) for r in rows("math500/test.jsonl")]
    for name, fn, inputs in [
        ("gsm8k", gsm8k.compute_score, g),
        ("math", math_reward.compute_score, m),
    ]:
        runs = [throughput(fn, inputs) for _ in range(5)]
        print(f"verl-python {name:6s} n={len(inputs)} single={statistics.median(runs):.0f}/s")


if __name__ == "__main__":
    main()
