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
import pathlib

import gguf
import numpy as np
from safetensors.numpy import load_file

ROOT = pathlib.Path(__file__).resolve().parents[1]
HF = ROOT / "tpu-backend/src/test/resources/hf"
# fixture name -> llama.cpp architecture
FAMILIES = {"qwen3-tiny": gguf.MODEL_ARCH.QWEN3}


def write(name, arch):
    src = HF / name
    cfg = json.loads((src / "config.json").read_text())
    weights = load_file(src / "model.safetensors")
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
    w.add_rope_freq_base(cfg["rope_parameters"]["rope_theta"])
    w.add_layer_norm_rms_eps(cfg["rms_norm_eps"])
    w.add_vocab_size(cfg["vocab_size"])
    for hf_name, t in weights.items():
        gg = names.get_name(hf_name, try_suffixes=(".weight", ".bias"))
        if gg is None:
            raise SystemExit(f"{name}: no llama.cpp name for {hf_name}")
        w.add_tensor(gg, np.ascontiguousarray(t, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(name, "->", name + ".gguf", len(weights), "tensors")


def main():
    for name, arch in FAMILIES.items():
        write(name, arch)


if __name__ == "__main__":
    main()
