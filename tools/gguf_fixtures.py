"""Writes the GGUF reader's test fixtures with the `gguf` package's own writer and dequantiser.

  python tools/gguf_fixtures.py tpu-backend/src/test/resources/gguf

metadata.gguf  every metadata value type (nested arrays too), alignment 64, two F32 tensors.
quants.gguf    one 2x256 tensor per ggml type; q_<type>.f32 holds gguf.quants.dequantize of it
               (little-endian f32, row-major). Types gguf cannot quantise (K-quants) get random
               blocks with small finite f16 scales.
"""

import sys
from pathlib import Path

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T
from gguf import quants

ROWS, COLS = 2, 256


def metadata_file(out: Path) -> None:
    w = gguf.GGUFWriter(str(out / "metadata.gguf"), arch="llama")
    w.add_custom_alignment(64)
    w.add_uint8("t.u8", 200)
    w.add_int8("t.i8", -100)
    w.add_uint16("t.u16", 60000)
    w.add_int16("t.i16", -30000)
    w.add_uint32("t.u32", 4000000000)
    w.add_int32("t.i32", -2000000000)
    w.add_uint64("t.u64", 1 << 40)
    w.add_int64("t.i64", -(1 << 40))
    w.add_float32("t.f32", 0.5)
    w.add_float64("t.f64", 0.1)
    w.add_bool("t.bool", True)
    w.add_string("t.str", "héllo")
    w.add_array("t.arr_str", ["a", "bc", ""])
    w.add_array("t.arr_int", [1, 2, 3])
    w.add_array("t.arr_nested", [[1, 2], [3]])
    w.add_tensor("a", np.arange(6, dtype=np.float32).reshape(2, 3))
    w.add_tensor("b", np.full((5,), -1.5, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def random_blocks(qtype: T, rng: np.random.Generator) -> np.ndarray:
    block, size = gguf.GGML_QUANT_SIZES[qtype]
    raw = rng.integers(0, 256, size=(ROWS, COLS // block, size), dtype=np.uint8)
    scale = rng.uniform(0.001, 0.1, size=(ROWS, COLS // block, 2)).astype(np.float16).view(np.uint8)
    if qtype == T.Q6_K:
        raw[..., 208:210] = scale[..., 0:2]  # d is last in Q6_K
    else:
        raw[..., 0:4] = scale  # d and dmin are first
    return raw.reshape(ROWS, -1)


def quants_file(out: Path) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((ROWS, COLS)).astype(np.float32)
    w = gguf.GGUFWriter(str(out / "quants.gguf"), arch="llama")
    for qtype in [T.F32, T.F16, T.BF16, T.Q8_0, T.Q4_0, T.Q4_1, T.Q4_K, T.Q5_K, T.Q6_K]:
        if qtype in (T.Q4_K, T.Q5_K, T.Q6_K):
            q = random_blocks(qtype, rng)
        else:
            q = quants.quantize(x, qtype)
        expected = quants.dequantize(q, qtype).astype("<f4")
        assert expected.shape == (ROWS, COLS) and np.isfinite(expected).all(), qtype
        name = "q_" + qtype.name.lower()
        w.add_tensor(name, q, raw_dtype=qtype)
        (out / (name + ".f32")).write_bytes(expected.tobytes())
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tpu-backend/src/test/resources/gguf")
    out.mkdir(parents=True, exist_ok=True)
    metadata_file(out)
    quants_file(out)
    print("wrote", sorted(p.name for p in out.iterdir()))


if __name__ == "__main__":
    main()
