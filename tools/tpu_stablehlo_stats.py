#!/usr/bin/env python3
"""Compiles a StableHLO text module ahead of time for a named TPU topology, with no TPU attached.

Usage: tpu_stablehlo_stats.py PROGRAM.mlir [PROGRAM.mlir ...] --topology v5e:2x4 [--topology v6e-8 ...]

PROGRAM.mlir is StableHLO text as Javelin prints it (dev.javelin.backend.stablehlo.StableHloPrinter)
or as JAX's `lower(...).as_text()` does. libtpu (tools/requirements/libtpu.txt, installed into .venv
by tools/setup/venv.sh) compiles it through JAX's compile-only TPU client
(`jax.experimental.topologies.get_topology_desc`); nothing runs. Prints one JSON object per topology
and program on stdout:

  {"program": "PROGRAM.mlir", "topology": "v5e:2x4", "device_kind": "TPU v5 lite", "chips": 8, "partitions": 8,
   "argument_bytes": ..., "output_bytes": ..., "alias_bytes": ..., "temp_bytes": ...,
   "generated_code_bytes": ..., "flops": ..., "transcendentals": ..., "bytes_accessed": ...,
   "compile_seconds": ...}

Memory figures are per chip (XLA's CompiledMemoryStats of the partitioned module, which is the same
on every chip); flops and bytes accessed are XLA's cost analysis of that per-chip module.

Topology names are JAX's (`v5e:2x4`, `v6e:2x4`, `v5p:2x2x1`, `v4:2x2x1`, multi-host `v5e:4x4`) or the
slice names Cloud TPU sells (`v5e-8`, `v6e-8`, `v5p-8`, `v5e-16`), mapped by SLICES below.

Multi-device (sharded) modules: the module's `mhlo.num_partitions = N` attribute (Javelin prints it
whenever a program carries a mesh; its arguments and results carry `mhlo.sharding` GSPMD strings)
decides the partition count (JAX's Shardy form, `sdy.sharding`, is compiled with XLA's Shardy
partitioner; Javelin's GSPMD form with the GSPMD partitioner). The module is compiled with one replica, N SPMD partitions and the
device assignment "partition p on the device with id p" (ids ascending, not the order the topology
lists its devices in: a multi-host topology lists each host's chips together, and libtpu compiles an
N-device program only for ids below N), which is what Javelin's CompileOptions.partitioned does with PJRT ids 0..N-1 and what
AotCompiler does for a topology. N may be smaller than the topology's chip count (a sampler on some
of the chips); N larger than it is an error. Without the attribute the module is one partition.

Exit status: 0 when every topology compiled, 1 when a compile failed (its JSON has "error"), 2 for
bad input (no such file, unknown topology name).
"""
import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

# Cloud TPU slice names -> JAX topology names. v5e/v6e names count chips; v4/v5p names count
# TensorCores (two per chip), so v5p-8 is four chips.
SLICES = {
    "v4-8": "v4:2x2x1",
    "v5e-1": "v5e:1x1",
    "v5e-4": "v5e:2x2",
    "v5e-8": "v5e:2x4",
    "v5e-16": "v5e:4x4",
    "v5e-32": "v5e:4x8",
    "v5p-8": "v5p:2x2x1",
    "v5p-16": "v5p:2x2x2",
    "v6e-1": "v6e:1x1",
    "v6e-4": "v6e:2x2",
    "v6e-8": "v6e:2x4",
    "v6e-16": "v6e:4x4",
}

PARTITIONS = re.compile(r"mhlo\.num_partitions\s*=\s*(\d+)")


def jax_topology_name(name):
    return SLICES.get(name, name)


def partition_count(text):
    """The module's mhlo.num_partitions (1 when absent), read from the module header only."""
    header = text[: text.find("func.func")] if "func.func" in text else text[:4096]
    m = PARTITIONS.search(header)
    return int(m.group(1)) if m else 1


def compile_options(xc, np, devices, shardy):
    opts = xc.CompileOptions()
    build = opts.executable_build_options
    build.num_replicas = 1
    build.num_partitions = len(devices)
    build.use_spmd_partitioning = len(devices) > 1
    build.use_shardy_partitioner = shardy
    build.device_assignment = xc.DeviceAssignment.create(np.array([[d.id for d in devices]]))
    return opts


def stats(topology_name, text):
    """Compiles text for topology_name; returns the JSON-ready figures."""
    import numpy as np
    from jax.experimental import topologies
    from jax._src.interpreters import mlir
    from jax._src.lib import xla_client as xc
    from jax._src.lib.mlir import ir

    name = jax_topology_name(topology_name)
    topo = topologies.get_topology_desc(platform="tpu", topology_name=name)
    all_devices = sorted(topo.devices, key=lambda d: d.id)
    n = partition_count(text)
    out = {"topology": name, "device_kind": all_devices[0].device_kind,
           "chips": len(all_devices), "partitions": n}
    if n > len(all_devices):
        out["error"] = f"the module has {n} partitions but {name} has {len(all_devices)} chips"
        return out
    devices = all_devices[:n]
    client = devices[0].client
    with mlir.make_ir_context():
        module = ir.Module.parse(text)
        start = time.perf_counter()
        exe = client.compile(module, xc.DeviceList(tuple(devices)), compile_options(xc, np, devices, "sdy.sharding" in text))
        out["compile_seconds"] = round(time.perf_counter() - start, 3)
    mem = exe.get_compiled_memory_stats()
    out.update({
        "argument_bytes": mem.argument_size_in_bytes,
        "output_bytes": mem.output_size_in_bytes,
        "alias_bytes": mem.alias_size_in_bytes,
        "temp_bytes": mem.temp_size_in_bytes,
        "generated_code_bytes": mem.generated_code_size_in_bytes,
    })
    cost = exe.cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost
    out["flops"] = cost.get("flops", 0.0)
    out["transcendentals"] = cost.get("transcendentals", 0.0)
    out["bytes_accessed"] = cost.get("bytes accessed", 0.0)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("programs", type=Path, nargs="+")
    ap.add_argument("--topology", action="append", required=True,
                    help="JAX topology name (v5e:2x4) or slice name (v5e-8); repeatable")
    args = ap.parse_args()
    for program in args.programs:
        if not program.is_file():
            print(f"tpu_stablehlo_stats.py: no such file {program}", file=sys.stderr)
            return 2
    # libtpu looks for TPU metadata when it loads; on a machine without a TPU that only warns.
    os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
    # no chips to guard: several compiling processes (tests, benches) may load libtpu at once
    os.environ.setdefault("ALLOW_MULTIPLE_LIBTPU_LOAD", "1")
    status = 0
    for program in args.programs:
        text = program.read_text()
        for t in args.topology:
            try:
                result = {"program": str(program), **stats(t, text)}
            except Exception as e:  # one failing compile still reports the others
                msg = str(e).splitlines()[0] if str(e) else type(e).__name__
                if "topology" in msg.lower() and t not in SLICES and ":" not in t:
                    print(f"tpu_stablehlo_stats.py: unknown topology '{t}' (e.g. v5e:2x4 or "
                          f"{', '.join(SLICES)})", file=sys.stderr)
                    return 2
                result = {"program": str(program), "topology": jax_topology_name(t), "error": msg}
            if "error" in result:
                status = 1
            print(json.dumps(result), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
