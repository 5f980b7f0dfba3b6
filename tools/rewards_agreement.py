"""Labelled agreement sets for the `math` reward, and VeRL's and math-verify's figures on them.

  build:   python tools/rewards_agreement.py build [--problems 100] [--math500 PATH]
           writes rewards/src/test/resources/rewards/agreement/math500_forms.jsonl from the shared
           MATH-500 test set (../shared/datasets/math500/test.jsonl): per problem, the reference
           solution (label true), the same with its boxes removed (true), the same with a plain
           "The answer is X." line appended (true), and the solution with another problem's
           answer (written differently) in its boxes (false) and unboxed (false). Labels are by
           construction, not by a grader.
  measure: python tools/rewards_agreement.py measure FILE.jsonl ...
           prints, per file, the agreement with the labels of VeRL 0.9.1's math_reward
           (tools/rewards_verl.py), HF math-verify (parse + verify) and Javelin's `math` reward in
           both extraction modes (`./javelin score`), with time per 1,000 responses.

Needs: pip install -r tools/requirements/rewards-agreement.txt, in a venv of its own (VeRL's wheel
is installed by tools/rewards_verl.py without dependencies). `measure` runs `./javelin score`.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "rewards", "src", "test", "resources", "rewards", "agreement")
MATH500 = os.path.join(ROOT, "..", "shared", "datasets", "math500", "test.jsonl")


def box_spans(s):
    """(start, content start, end) of every \\boxed{...}, braces matched."""
    spans = []
    at = s.find("\\boxed{")
    while at >= 0:
        depth = 0
        for i in range(at + 6, len(s)):
            if s[i] == "{":
                depth += 1
            elif s[i] == "}":
                depth -= 1
                if depth == 0:
                    spans.append((at, at + 7, i))
                    break
        else:
            break
        at = s.find("\\boxed{", spans[-1][2] if spans else len(s))
    return spans


def rebox(sol, make):
    """sol with every box replaced by make(content)."""
    out, last = [], 0
    for at, c0, end in box_spans(sol):
        out.append(sol[last:at])
        out.append(make(sol[c0:end]))
        last = end + 1
    return "".join(out) + sol[last:]


def variants(sol, answer, other):
    if not box_spans(sol):
        return []
    unboxed = rebox(sol, lambda c: c)
    return [
        (sol, True, "reference solution"),
        (unboxed, True, "box removed"),
        (unboxed + "\nThe answer is " + answer + ".", True, "box removed, answer stated"),
        (rebox(sol, lambda c: "\\boxed{" + other + "}"), False, "another problem's answer boxed"),
        (rebox(sol, lambda c: other), False, "another problem's answer, unboxed"),
    ]


def surface_key(a):
    """A crude surface form, only to avoid pairing two answers that are written alike."""
    a = re.sub(r"\\(left|right|displaystyle|!|,|;)", "", a)
    a = re.sub(r"\\text\{([^}]*)\}", r"\1", a)
    a = re.sub(r"^\s*[a-zA-Z]\s*=", "", a).replace("\\dfrac", "\\frac")
    return re.sub(r"[\s$]|\^\\circ|\\%", "", a)


def build(problems, math500):
    rows = [json.loads(line) for line in open(math500, encoding="utf-8") if line.strip()][:problems]
    out = []
    for i, r in enumerate(rows):
        # the next problem whose answer is written differently
        j = (i + 1) % len(rows)
        while surface_key(rows[j]["answer"]) == surface_key(r["answer"]):
            j = (j + 1) % len(rows)
        for resp, label, kind in variants(r["solution"], r["answer"], rows[j]["answer"]):
            out.append(
                {"response": resp, "ground_truth": r["answer"], "label": label, "kind": kind,
                 "id": r["unique_id"]})
    os.makedirs(OUT_DIR, exist_ok=True)
    path = os.path.join(OUT_DIR, "math500_forms.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for o in out:
            f.write(json.dumps(o) + "\n")
    print(f"wrote {len(out)} rows from {len(rows)} problems to {path}")


def agreement(labels, accepted):
    agree = sum(1 for lab, a in zip(labels, accepted) if lab == a)
    fp = sum(1 for lab, a in zip(labels, accepted) if a and not lab)
    fn = sum(1 for lab, a in zip(labels, accepted) if lab and not a)
    return agree, fp, fn


def verl_scores(rows):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import rewards_verl

    math_reward = rewards_verl.load("math_reward")
    t0 = time.perf_counter()
    acc = [math_reward.compute_score(r["response"], r["ground_truth"]) == 1.0 for r in rows]
    return acc, time.perf_counter() - t0


def math_verify_scores(rows):
    from math_verify import parse, verify

    t0 = time.perf_counter()
    acc = []
    for r in rows:
        try:
            acc.append(bool(verify(parse("$" + r["ground_truth"] + "$"), parse(r["response"]))))
        except Exception:  # a grader error is a 0, as in a training run
            acc.append(False)
    return acc, time.perf_counter() - t0


def javelin_scores(path, kwargs):
    cmd = [os.path.join(ROOT, "javelin"), "score", path, "--reward", "math"]
    if kwargs:
        cmd += ["--kwargs", kwargs]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    acc = []
    for line in out.splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) >= 3 and parts[0].isdigit():
            acc.append(parts[1] != "0")
    ms = float(re.search(r"\(([\d.]+) ms per 1,000\)", out).group(1))
    return acc, ms


def measure(paths, javelin):
    for path in paths:
        rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
        labels = [bool(r["label"]) for r in rows]
        n = len(rows)
        print(f"\n{os.path.basename(path)}: {n} rows, {sum(labels)} labelled correct")
        print(f"  {'grader':34} {'agree':>12} {'false +':>8} {'false -':>8} {'ms/1000':>9}")
        results = []
        acc, secs = verl_scores(rows)
        results.append(("VeRL 0.9.1 math_reward", acc, secs * 1e6 / n))
        acc, secs = math_verify_scores(rows)
        results.append(("math-verify 0.8.0", acc, secs * 1e6 / n))
        for name, kw in (("Javelin math (extraction=verl)", ""),
                         ("Javelin math (extraction=math_verify)", "extraction=math_verify")):
            if javelin:
                acc, ms = javelin_scores(path, kw)
                results.append((name, acc, ms))
        print("  (ms/1000: Python graders timed in this process; Javelin's from `javelin score`, a cold"
              " JVM's single pass with its pool start; RewardsBench gives warm figures)")
        for name, acc, ms in results:
            agree, fp, fn = agreement(labels, acc)
            print(f"  {name:34} {agree:5d} {100.0 * agree / n:5.1f}% {fp:8d} {fn:8d} {ms:9.1f}")


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--problems", type=int, default=100)
    b.add_argument("--math500", default=MATH500, help="MATH-500 test.jsonl")
    m = sub.add_parser("measure")
    m.add_argument("files", nargs="+")
    m.add_argument("--no-javelin", action="store_true", help="only VeRL and math-verify")
    a = p.parse_args()
    if a.cmd == "build":
        build(a.problems, a.math500)
    else:
        measure(a.files, not a.no_javelin)


if __name__ == "__main__":
    main()
