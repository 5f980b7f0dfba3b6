"""Real quantised blocks of Gemma 3 270M (Q4_K_M GGUF) and gguf-py's dequantisation of them.

  (requirements: tools/requirements/gguf.txt or gemma3-parity.txt)
  python tools/gemma3_quant_fixture.py <gemma-3-270m-q4_k_m.gguf> tpu-backend/src/test/resources/gguf

Writes gemma3_blocks.gguf: for every quantised type in the file, the first BLOCKS blocks of the
first tensor of that type, copied byte for byte into a 1-row tensor; and gemma3_<type>.f32, the
`gguf.quants.dequantize` of those bytes (little-endian f32). The Q5_0 blocks are what llama.cpp
wrote for rows of 640 (not a multiple of 256); the others come from the same file for company.
"""

import sys
from pathlib import Path

import gguf
import numpy as np
from gguf import GGUFReader
from gguf import quants

ELEMENTS = 256  # per fixture tensor: 8 blocks of 32 or 1 block of 256


def main() -> None:
    src, out = sys.argv[1], Path(sys.argv[2])
    r = GGUFReader(src)
    picked = {}
    for t in r.tensors:
        if t.tensor_type not in (gguf.GGMLQuantizationType.F32, gguf.GGMLQuantizationType.F16):
            picked.setdefault(t.tensor_type, t)
    w = gguf.GGUFWriter(str(out / "gemma3_blocks.gguf"), arch="gemma3")
    for qtype, t in sorted(picked.items(), key=lambda kv: kv[0].value):
        block, size = gguf.GGML_QUANT_SIZES[qtype]
        raw = np.asarray(t.data).reshape(-1).view(np.uint8)[: ELEMENTS // block * size].copy()
        expected = quants.dequantize(raw.reshape(1, -1), qtype).astype("<f4")
        assert expected.shape == (1, ELEMENTS) and np.isfinite(expected).all(), qtype
        name = "gemma3_" + qtype.name.lower()
        w.add_tensor(name, raw.reshape(1, -1), raw_dtype=qtype)
        (out / (name + ".f32")).write_bytes(expected.tobytes())
        print(name, "from", t.name, "range", float(expected.min()), float(expected.max()))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
