#!/usr/bin/env python3
"""GGUF copies of the tiny HF parity checkpoints (tools/hf_fixtures.py), named as llama.cpp names them.

For each family checkpoint in tpu-backend/src/test/resources/hf/<name>/ this writes <name>.gguf next
to it: F32 tensors renamed with gguf-py's own map (gguf.get_tensor_name_map, what
convert_hf_to_gguf.py uses) and the <arch>.* metadata convert_hf_to_gguf.py writes for that
architecture. The Java loader must read back exactly the HF checkpoint's config and weights.

Usage: python tools/gguf_family_fixtures.py   (numpy, gguf, safetensors: tools/requirements/gguf.txt
and tools/requirements/hf.txt)
"""
import json
import re
import pathlib

import gguf
import numpy as np
from safetensors.numpy import load_file

ROOT = pathlib.Path(__file__).resolve().parents[1]
HF = ROOT / "tpu-backend/src/test/resources/hf"
# fixture name -> llama.cpp architecture
FAMILIES = {"qwen3-tiny": gguf.MODEL_ARCH.QWEN3, "qwen3-moe-routed-tiny": gguf.MODEL_ARCH.QWEN3MOE,
            "gemma3-pattern-tiny": gguf.MODEL_ARCH.GEMMA3}
EXPERT = re.compile(r"model\.layers\.(\d+)\.mlp\.experts\.(\d+)\.(gate_proj|up_proj|down_proj)\.weight")


def stack_experts(weights):
    """Per-expert matrices stacked (E, out, in) under model.layers.{i}.mlp.experts.<proj>.weight,
    as convert_hf_to_gguf.py merges them before naming."""
    out, parts = {}, {}
    for name, t in weights.items():
        m = EXPERT.fullmatch(name)
        if m is None:
            out[name] = t
        else:
            key = f"model.layers.{m[1]}.mlp.experts.{m[3]}.weight"
            parts.setdefault(key, {})[int(m[2])] = t
    for key, by_expert in parts.items():
        out[key] = np.stack([by_expert[j] for j in sorted(by_expert)])
    return out


def write(name, arch):
    src = HF / name
    cfg = json.loads((src / "config.json").read_text())
    weights = stack_experts(load_file(src / "model.safetensors"))
    arch_name = gguf.MODEL_ARCH_NAMES[arch]
    layers = cfg["num_hidden_layers"]
    names = gguf.get_tensor_name_map(arch, layers)
    w = gguf.GGUFWriter(str(HF / (name + ".gguf")), arch=arch_name)
    w.add_block_count(layers)
    w.add_context_length(cfg["max_position_embeddings"])
    w.add_embedding_length(cfg["hidden_size"])
    w.add_feed_forward_length(cfg["intermediate_size"])
    w.add_head_count(cfg["num_attention_heads"])
    w.add_head_count_kv(cfg["num_key_value_heads"])
    w.add_key_length(cfg["head_dim"])
    w.add_value_length(cfg["head_dim"])
    rope = cfg["rope_parameters"]
    w.add_rope_freq_base(rope.get("full_attention", rope)["rope_theta"])
    w.add_layer_norm_rms_eps(cfg["rms_norm_eps"])
    w.add_vocab_size(cfg["vocab_size"])
    if "num_local_experts" in cfg:  # what Qwen2MoeModel.set_gguf_parameters writes
        w.add_expert_count(cfg["num_local_experts"])
        w.add_expert_used_count(cfg["num_experts_per_tok"])
        w.add_expert_feed_forward_length(cfg["moe_intermediate_size"])
    norm_shift = 0.0
    if arch == gguf.MODEL_ARCH.GEMMA3:  # what Gemma3Model.set_gguf_parameters writes
        w.add_sliding_window(cfg["sliding_window"])
        if rope["full_attention"]["rope_type"] == "linear":
            w.add_rope_scaling_type(gguf.RopeScalingType.LINEAR)
            w.add_rope_scaling_factor(rope["full_attention"]["factor"])
        norm_shift = 1.0  # its modify_tensors stores the (1 + w) of Gemma's RMSNorm
    for hf_name, t in weights.items():
        gg = names.get_name(hf_name, try_suffixes=(".weight", ".bias"))
        if gg is None:
            raise SystemExit(f"{name}: no llama.cpp name for {hf_name}")
        if hf_name.endswith("norm.weight"):
            t = t + np.float32(norm_shift)
        w.add_tensor(gg, np.ascontiguousarray(t, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(name, "->", name + ".gguf", len(weights), "tensors")


def main(names=None):
    for name, arch in FAMILIES.items():
        if names is None or name in names:
            write(name, arch)


if __name__ == "__main__":
    main()
