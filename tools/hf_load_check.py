#!/usr/bin/env python3
"""Checks that transformers loads a checkpoint directory Javelin wrote (developer check, not CI).

Loads DIR with AutoModelForCausalLM (f32, eager attention), fails on any missing, unexpected or
mismatched tensor, and with --fixture NAME compares its logits on that fixture's batch
(tpu-backend/src/test/resources/hf/NAME/fixture.safetensors, tools/hf_fixtures.py) within 1e-5
relative error. Qwen3MoeFamilyTest writes tpu-backend/target/hf-writeback/qwen3-moe-tiny and
Gemma3FamilyTest tpu-backend/target/hf-writeback/gemma3-tiny; TrainerGangClusterIT keeps the
checkpoint of a two-rank trainer gang on a Ray cluster in tests/target/hf-writeback/gang-2-ranks.

Usage: /work/venvs/hf/bin/python tools/hf_load_check.py DIR [--fixture NAME]
"""
import argparse
import pathlib
import sys

import torch
from safetensors.torch import load_file
from transformers import AutoModelForCausalLM

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--fixture")
    a = ap.parse_args()
    model, info = AutoModelForCausalLM.from_pretrained(
        a.dir, dtype=torch.float32, attn_implementation="eager", output_loading_info=True)
    bad = {k: v for k, v in info.items() if v and k != "error_msgs"} | (
        {"error_msgs": info["error_msgs"]} if info.get("error_msgs") else {})
    if bad:
        sys.exit(f"{a.dir}: {bad}")
    print(type(model).__name__, "loaded,", sum(p.numel() for p in model.parameters()), "parameters")
    if a.fixture:
        fx = load_file(ROOT / "tpu-backend/src/test/resources/hf" / a.fixture / "fixture.safetensors")
        attn = fx["attention_mask"].long()
        with torch.no_grad():
            logits = model(input_ids=fx["input_ids"].long(), attention_mask=attn).logits
        keep = attn.bool()
        want = fx["logits"][keep]
        rel = ((logits[keep] - want).norm() / want.norm()).item()
        print(f"logits vs {a.fixture}: relative error {rel:.2e}")
        if rel > 1e-5:
            sys.exit(f"{a.dir}: logits differ from {a.fixture} ({rel:.2e} > 1e-5)")


if __name__ == "__main__":
    main()
