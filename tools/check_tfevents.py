"""Checks TensorBoard event files against a run's metrics.jsonl (used by ObservabilityTest).

Usage: check_tfevents.py <tensorboard dir> <metrics.jsonl>
Every finite metric of every step must be a scalar with that step and value (metrics.jsonl keeps 6 significant digits)
in the events TensorBoard's own reader loads. Prints one line and exits 0 on success, 1 otherwise.
"""
import json
import math
import sys

from tensorboard.backend.event_processing import event_accumulator


def main(tb_dir, jsonl):
    acc = event_accumulator.EventAccumulator(tb_dir, size_guidance={event_accumulator.SCALARS: 0})
    acc.Reload()
    got = {}
    for tag in acc.Tags()["scalars"]:
        for e in acc.Scalars(tag):
            got[(tag, e.step)] = e.value
    want = {}
    with open(jsonl) as f:
        for line in f:
            rec = json.loads(line)
            step = rec.pop("step")
            for k, v in rec.items():
                if v is not None and math.isfinite(v):
                    want[(k, step)] = v
    bad = [
        (k, v, got.get(k))
        for k, v in want.items()
        if k not in got or not math.isclose(got[k], v, rel_tol=1e-5, abs_tol=1e-6)
    ]
    if bad or len(got) != len(want):
        print(f"tfevents mismatch: {len(bad)} bad of {len(want)} (got {len(got)}): {bad[:5]}")
        return 1
    print(f"tfevents ok: {len(want)} scalars over {len({s for _, s in want})} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
