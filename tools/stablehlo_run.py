#!/usr/bin/env python3
"""Compiles and runs StableHLO programs on XLA:CPU through jaxlib (no jax tracing).

Usage: stablehlo_run.py DIR [--repeat N] [--full-opt]

DIR/manifest.json lists cases written by the Java side (dev.javelin.backend.stablehlo tests):

  {"cases": [{"name": "add",
              "program": "add.mlir",
              "inputs":  [{"file": "add.in0.bin",  "dtype": "f32", "shape": [2, 3]}],
              "outputs": [{"file": "add.out0.bin", "dtype": "f32", "shape": [2, 3]}]}]}

Tensors are raw little-endian row-major arrays; dtype is the MLIR element type
(f32, f64, i32, i1 as one byte 0/1). Each case is compiled with the PJRT CPU client's
compile_and_load, run once, and its outputs written to the listed files after checking their
count, shape and dtype against the manifest. DIR/results.tsv gets one line per case:
"name<TAB>ok<TAB>seconds" (compile + first run) or "name<TAB>error<TAB>message". With
--repeat N each case then runs N more times and a fourth column holds the median seconds of
one execution, for benchmarks; --full-opt compiles with XLA's default LLVM optimisation
(tests use a cheaper level that compiles faster and computes the same values). One failing case does not stop the others; the exit status is 0
when the manifest could be processed at all.
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i1": np.bool_}


def read_tensor(path, spec):
    dtype = np.dtype(DTYPES[spec["dtype"]]).newbyteorder("<")
    data = np.fromfile(path, dtype=np.uint8 if spec["dtype"] == "i1" else dtype)
    shape = tuple(spec["shape"])
    if data.size != int(np.prod(shape, dtype=np.int64)):
        raise ValueError(f"{path.name}: {data.size} elements, shape {shape} needs more or fewer")
    if spec["dtype"] == "i1":
        data = data != 0
    return data.reshape(shape).astype(DTYPES[spec["dtype"]])


def write_tensor(path, array, spec):
    want = DTYPES[spec["dtype"]]
    if array.dtype != np.dtype(want) or list(array.shape) != list(spec["shape"]):
        raise ValueError(
            f"output {path.name}: got {array.dtype}{list(array.shape)}, "
            f"expected {spec['dtype']}{spec['shape']}")
    if spec["dtype"] == "i1":
        array = array.astype(np.uint8)
    np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tofile(path)


def compile_options(xc, full_opt):
    opts = xc.CompileOptions()
    if not full_opt:
        # The LLVM backend's heavy optimisations cost most of the compile time of small test
        # programs and do not change what the HLO means; HLO passes (fusion etc.) still run.
        debug = opts.executable_build_options.debug_options
        debug.xla_backend_optimization_level = 0
        debug.xla_llvm_disable_expensive_passes = True
    return opts


def run_case(jax, client, xc, device, root, case, args):
    """Compiles, runs and writes one case; returns (compile + first run s, median run s)."""
    start = time.perf_counter()
    text = (root / case["program"]).read_text()
    opts = compile_options(xc, args.full_opt)
    exe = client.compile_and_load(text, xc.DeviceList((device,)), opts)
    inputs = [jax.device_put(read_tensor(root / s["file"], s), device) for s in case["inputs"]]
    outs = exe.execute(inputs)
    for buf in outs:
        buf.block_until_ready()
    first = time.perf_counter() - start
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        for buf in exe.execute(inputs):
            buf.block_until_ready()
        times.append(time.perf_counter() - t0)
    if len(outs) != len(case["outputs"]):
        raise ValueError(f"{len(outs)} outputs, manifest lists {len(case['outputs'])}")
    for buf, spec in zip(outs, case["outputs"]):
        write_tensor(root / spec["file"], np.asarray(buf), spec)
    return first, (sorted(times)[len(times) // 2] if times else None)


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", type=Path)
    parser.add_argument("--repeat", type=int, default=0)
    parser.add_argument("--full-opt", action="store_true")
    args = parser.parse_args(argv[1:])
    root = args.dir
    manifest = json.loads((root / "manifest.json").read_text())
    import jax
    import jax.extend as jex

    jax.config.update("jax_enable_x64", True)  # keep f64 arguments f64 on device_put
    from jax._src.lib import xla_client as xc

    client = jex.backend.get_backend("cpu")
    device = client.local_devices()[0]
    lines = []
    for case in manifest["cases"]:
        try:
            first, median = run_case(jax, client, xc, device, root, case, args)
            line = f"{case['name']}\tok\t{first:.3f}"
            lines.append(line if median is None else f"{line}\t{median:.6f}")
        except Exception as e:  # report per case; the Java test shows the message
            message = " ".join(f"{type(e).__name__}: {e}".split())
            lines.append(f"{case['name']}\terror\t{message}")
    (root / "results.tsv").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
