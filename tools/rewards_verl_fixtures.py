"""Writes rewards/src/test/resources/rewards/verl_reference.jsonl: VeRL's own scores for a fixed
set of (response, ground truth) pairs built from the shared GSM8K and MATH-500 test sets, so the
Java rewards can be checked against the reference implementation.

Run from the repository root:  .venv/bin/python tools/rewards_verl_fixtures.py
"""

import contextlib
import io
import json
import os
import random

from rewards_verl import VERL_VERSION, load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "datasets")
OUT = os.path.join(ROOT, "rewards", "src", "test", "resources", "rewards", "verl_reference.jsonl")


def rows(path):
    with open(os.path.join(DATA, path), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def gsm8k_cases(rng):
    out = []
    data = rows("gsm8k/test.jsonl")
    for row in rng.sample(data, 150):
        gt = row["answer"].split("#### ")[-1].strip().replace(",", "")
        n = int(float(gt)) if gt.lstrip("-").replace(".", "").isdigit() else 7
        big = f"{n * 1000 + 123:,}"
        for resp in [
            row["answer"],
            f"So the answer is {gt}.",
            f"#### {n + 1}",
            f"#### ${gt}",
            f"####  {gt}",
            f"#### {gt}.",
            f"#### {gt}.00",
            f"The total is {big} dollars.\n#### {big}",
            f"I think {gt}, or maybe {n + 2}",
            f"{gt} apples, then ...",
        ]:
            out.append({"fn": "gsm8k", "response": resp, "ground_truth": gt})
    return out


def math_cases(rng):
    out = []
    data = rows("math500/test.jsonl")
    for i, row in enumerate(data):
        ans = row["answer"]
        other = data[(i + 1) % len(data)]["answer"]
        variants = [
            f"The answer is $\\boxed{{{ans}}}$.",
            row["solution"],
            f"\\boxed{{{ans.replace('frac', 'dfrac')}}}",
            f"\\boxed{{{ans.replace(' ', '')}}}",
            f"\\boxed {ans}$",
            f"\\boxed{{{ans}\\text{{ units}}}}",
            f"\\boxed{{x = {ans}}}",
            f"\\boxed{{{other}}}",
            f"answer: {ans}",
        ]
        for resp in variants:
            out.append({"fn": "math", "response": resp, "ground_truth": ans})
        for resp in [f"Answer: {ans}", f"Answer: ${ans}$", f"Answer: {other}", f"\\boxed{{{ans}}}"]:
            out.append({"fn": "math_dapo", "response": resp, "ground_truth": ans})
    return out


def main():
    rng = random.Random(20261129)
    gsm8k = load("gsm8k")
    math_reward = load("math_reward")
    math_dapo = load("math_dapo")
    cases = gsm8k_cases(rng) + math_cases(rng)
    for c in cases:
        with contextlib.redirect_stdout(io.StringIO()):  # math_reward prints its exceptions
            if c["fn"] == "gsm8k":
                c["verl_strict"] = float(gsm8k.compute_score(c["response"], c["ground_truth"]))
                c["verl_flexible"] = float(
                    gsm8k.compute_score(c["response"], c["ground_truth"], method="flexible")
                )
            elif c["fn"] == "math":
                c["verl_score"] = float(math_reward.compute_score(c["response"], c["ground_truth"]))
            else:
                c["verl_score"] = float(
                    math_dapo.compute_score(c["response"], c["ground_truth"])["score"]
                )
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(json.dumps({"verl_version": VERL_VERSION, "cases": len(cases)}) + "\n")
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
