#!/usr/bin/env python3
"""A plain JAX Llama/Qwen2 GRPO train step (and log-probs pass), compiled ahead of time for a TPU
topology with no TPU attached: the side-by-side of `javelin plan`.

Usage:
  tpu_reference_step.py --config bench/models/qwen2.5-0.5b/config.json --topology v5e-8 \
      --batch 64 --seq 1024 [--fsdp 8] [--tp 1] [--remat] [--scan] [--layers N] \
      [--program train|logprobs] [--dtype bf16|f32]

The model is the decoder Javelin builds (RMSNorm, RoPE, grouped-query attention with Qwen2's q/k/v
biases, SwiGLU MLP, tied or separate LM head), from an HF config.json alone (no weights; shapes
only). The train step is what Javelin's trainer does per micro-batch, fused: bf16 compute from f32
master weights (--dtype bf16, mixed precision), per-token log-probs at temperature 1, the GRPO
clipped surrogate (ratio to old log-probs, advantages, token-mean over a response mask), gradients,
global-norm clipping and AdamW on f32 weights and moments, weights and moments donated. Sharding is
FSDP through NamedSharding: every weight and moment split on its first divisible dimension over the
`fsdp` mesh axis, the batch split over it too; --tp adds a `tp` axis splitting heads and MLP
columns (Megatron layout). --remat wraps each decoder layer in jax.checkpoint (nothing saved but
the layer's input); --scan runs the layers as one lax.scan over stacked weights (MaxText's scanned
layers) instead of unrolling them.

Prints one JSON object with the same fields as tools/tpu_stablehlo_stats.py, plus "parameters" and
"model_flops" (6 * parameters * tokens for train, 2 * parameters * tokens for log-probs, the
attention term added: 12 * layers * heads * head_dim * seq^2 * batch / 2 causal for train).
"""
import argparse
import json
import math
import os
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tpu_stablehlo_stats import jax_topology_name  # noqa: E402


def load_config(path, layers):
    c = json.loads(Path(path).read_text())
    cfg = {
        "vocab": c["vocab_size"], "hidden": c["hidden_size"], "inter": c["intermediate_size"],
        "layers": layers or c["num_hidden_layers"], "heads": c["num_attention_heads"],
        "kv": c.get("num_key_value_heads", c["num_attention_heads"]),
        "theta": c.get("rope_theta", 10000.0), "eps": c.get("rms_norm_eps", 1e-6),
        "tied": c.get("tie_word_embeddings", False), "bias": c.get("model_type") == "qwen2",
    }
    cfg["head_dim"] = cfg["hidden"] // cfg["heads"]
    return cfg


def layer_shapes(c):
    d, h, kv, dh, f = c["hidden"], c["heads"], c["kv"], c["head_dim"], c["inter"]
    s = {"in_norm": (d,), "q": (d, h * dh), "k": (d, kv * dh), "v": (d, kv * dh),
         "o": (h * dh, d), "post_norm": (d,), "gate": (d, f), "up": (d, f), "down": (f, d)}
    if c["bias"]:
        s.update({"q_b": (h * dh,), "k_b": (kv * dh,), "v_b": (kv * dh,)})
    return s


def param_shapes(c, scan):
    out = {"embed": (c["vocab"], c["hidden"]), "norm": (c["hidden"],)}
    if not c["tied"]:
        out["head"] = (c["hidden"], c["vocab"])
    for name, shape in layer_shapes(c).items():
        if scan:
            out["layers." + name] = (c["layers"],) + shape
        else:
            for i in range(c["layers"]):
                out[f"layers.{i}.{name}"] = shape
    return out


# Megatron layout under tp: column-parallel weights split their output dim, row-parallel their
# input dim; everything else goes over fsdp on its first divisible dim.
COLUMN = ("q", "k", "v", "gate", "up", "q_b", "k_b", "v_b")
ROW = ("o", "down")


def weight_spec(name, shape, fsdp, tp, P):
    base = name.split(".")[-1]
    axes = [None] * len(shape)
    lead = 1 if name.startswith("layers.") and len(shape) >= 2 and "." not in name[7:] else 0
    if tp > 1 and base in COLUMN + ROW:
        col = len(shape) - 1 if base in COLUMN else lead
        if shape[col] % tp == 0:
            axes[col] = "tp"
    if fsdp > 1:
        for i in range(lead, len(shape)):
            if axes[i] is None and shape[i] % fsdp == 0:
                axes[i] = "fsdp"
                break
    return P(*axes)


def rms(x, w, eps):
    import jax.numpy as jnp
    v = jnp.mean(jnp.square(x.astype(jnp.float32)), axis=-1, keepdims=True)
    return (x.astype(jnp.float32) * jax_rsqrt(v + eps)).astype(x.dtype) * w


def jax_rsqrt(x):
    import jax
    return jax.lax.rsqrt(x)


def rope(x, cos, sin):
    import jax.numpy as jnp
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)


def block(c, w, x, cos, sin, mask):
    import jax
    import jax.numpy as jnp
    b, t, d = x.shape
    h, kv, dh = c["heads"], c["kv"], c["head_dim"]
    y = rms(x, w["in_norm"], c["eps"])
    q, k, v = y @ w["q"], y @ w["k"], y @ w["v"]
    if c["bias"]:
        q, k, v = q + w["q_b"], k + w["k_b"], v + w["v_b"]
    q = rope(q.reshape(b, t, h, dh), cos, sin)
    k = rope(k.reshape(b, t, kv, dh), cos, sin)
    v = v.reshape(b, t, kv, dh)
    rep = h // kv
    k = jnp.repeat(k, rep, axis=2)
    v = jnp.repeat(v, rep, axis=2)
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k).astype(jnp.float32) / math.sqrt(dh)
    s = jnp.where(mask, s, -1e30)
    p = jax.nn.softmax(s, axis=-1).astype(x.dtype)
    a = jnp.einsum("bhqk,bkhd->bqhd", p, v).reshape(b, t, h * dh)
    x = x + a @ w["o"]
    y = rms(x, w["post_norm"], c["eps"])
    return x + (jax.nn.silu(y @ w["gate"]) * (y @ w["up"])) @ w["down"]


def log_probs(c, params, ids, scan, remat, dtype):
    import jax
    import jax.numpy as jnp
    p = jax.tree.map(lambda a: a.astype(dtype), params)
    b, t = ids.shape
    x = p["embed"][ids]
    pos = jnp.arange(t)
    inv = 1.0 / (c["theta"] ** (jnp.arange(0, c["head_dim"], 2) / c["head_dim"]))
    ang = pos[:, None] * inv[None, :]
    cos = jnp.cos(ang)[None, :, None, :].astype(dtype)
    sin = jnp.sin(ang)[None, :, None, :].astype(dtype)
    mask = (pos[:, None] >= pos[None, :])[None, None]
    f = partial(block, c)
    if remat:
        f = jax.checkpoint(f)
    names = layer_shapes(c)
    if scan:
        stacked = {n: p["layers." + n] for n in names}
        x, _ = jax.lax.scan(lambda h, w: (f(w, h, cos, sin, mask), None), x, stacked)
    else:
        for i in range(c["layers"]):
            x = f({n: p[f"layers.{i}.{n}"] for n in names}, x, cos, sin, mask)
    x = rms(x, p["norm"], c["eps"])
    head = p["embed"].T if c["tied"] else p["head"]
    logits = (x[:, :-1] @ head).astype(jnp.float32)
    lp = jax.nn.log_softmax(logits, axis=-1)
    return jnp.take_along_axis(lp, ids[:, 1:, None], axis=-1)[..., 0]


def grpo_loss(c, params, ids, old_lp, adv, mask, scan, remat, dtype):
    import jax.numpy as jnp
    lp = log_probs(c, params, ids, scan, remat, dtype)
    ratio = jnp.exp(lp - old_lp)
    surrogate = jnp.minimum(ratio * adv[:, None], jnp.clip(ratio, 0.8, 1.28) * adv[:, None])
    return -jnp.sum(surrogate * mask) / jnp.maximum(jnp.sum(mask), 1.0)


def train_step(c, scan, remat, dtype, params, m, v, ids, old_lp, adv, mask, lr, step):
    import jax
    import jax.numpy as jnp
    loss, g = jax.value_and_grad(partial(grpo_loss, c, scan=scan, remat=remat, dtype=dtype))(
        params, ids, old_lp, adv, mask)
    norm = jnp.sqrt(sum(jnp.sum(jnp.square(x)) for x in jax.tree.leaves(g)))
    scale = jnp.minimum(1.0, 1.0 / (norm + 1e-6))
    b1, b2, eps, wd = 0.9, 0.999, 1e-8, 0.01
    m = jax.tree.map(lambda m_, g_: b1 * m_ + (1 - b1) * g_ * scale, m, g)
    v = jax.tree.map(lambda v_, g_: b2 * v_ + (1 - b2) * jnp.square(g_ * scale), v, g)
    c1, c2 = 1 - b1 ** step, 1 - b2 ** step
    params = jax.tree.map(
        lambda w, m_, v_: w - lr * ((m_ / c1) / (jnp.sqrt(v_ / c2) + eps) + wd * w), params, m, v)
    return loss, norm, params, m, v


def compile_step(args, c):
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.experimental import topologies
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    topo = topologies.get_topology_desc(platform="tpu", topology_name=jax_topology_name(args.topology))
    n = args.fsdp * args.tp
    devices = np.array(topo.devices[:n]).reshape(args.fsdp, args.tp)
    mesh = Mesh(devices, ("fsdp", "tp"))
    dtype = jnp.bfloat16 if args.dtype == "bf16" else jnp.float32
    shapes = param_shapes(c, args.scan)
    def f32(shape, spec):
        return jax.ShapeDtypeStruct(shape, jnp.float32, sharding=NamedSharding(mesh, spec))

    params = {k: f32(s, weight_spec(k, s, args.fsdp, args.tp, P)) for k, s in shapes.items()}
    b, t = args.batch, args.seq
    batch_axis = "fsdp" if args.fsdp > 1 and b % args.fsdp == 0 else None

    def row(shape, dt):
        spec = P(batch_axis, *([None] * (len(shape) - 1)))
        return jax.ShapeDtypeStruct(shape, dt, sharding=NamedSharding(mesh, spec))

    ids = row((b, t), jnp.int32)
    scalar = jax.ShapeDtypeStruct((), jnp.float32, sharding=NamedSharding(mesh, P()))
    if args.program == "logprobs":
        fn = jax.jit(partial(log_probs, c, scan=args.scan, remat=False, dtype=dtype))
        lowered = fn.lower(params, ids)
    else:
        fn = jax.jit(partial(train_step, c, args.scan, args.remat, dtype), donate_argnums=(0, 1, 2))
        lowered = fn.lower(params, params, params, ids, row((b, t - 1), jnp.float32),
                           row((b,), jnp.float32), row((b, t - 1), jnp.float32), scalar, scalar)
    if args.emit_stablehlo:
        Path(args.emit_stablehlo).write_text(lowered.as_text())
        return topo, None, 0.0, sum(math.prod(s) for s in shapes.values())
    start = time.perf_counter()
    compiled = lowered.compile()
    seconds = time.perf_counter() - start
    return topo, compiled, seconds, sum(math.prod(s) for s in shapes.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", required=True)
    ap.add_argument("--topology", required=True)
    ap.add_argument("--batch", type=int, required=True)
    ap.add_argument("--seq", type=int, required=True)
    ap.add_argument("--fsdp", type=int, default=1)
    ap.add_argument("--tp", type=int, default=1)
    ap.add_argument("--remat", action="store_true")
    ap.add_argument("--scan", action="store_true")
    ap.add_argument("--layers", type=int, default=0, help="override num_hidden_layers")
    ap.add_argument("--program", choices=("train", "logprobs"), default="train")
    ap.add_argument("--dtype", choices=("bf16", "f32"), default="bf16")
    ap.add_argument("--emit-stablehlo", metavar="PATH",
                    help="write the lowered step's StableHLO to PATH and stop before compiling")
    args = ap.parse_args()
    if not Path(args.config).is_file():
        print(f"tpu_reference_step.py: no such file {args.config}", file=sys.stderr)
        return 2
    os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
    # no chips to guard: several compiling processes (tests, benches) may load libtpu at once
    os.environ.setdefault("ALLOW_MULTIPLE_LIBTPU_LOAD", "1")
    c = load_config(args.config, args.layers)
    topo, compiled, seconds, n_params = compile_step(args, c)
    if compiled is None:
        print(f"wrote {args.emit_stablehlo}")
        return 0
    mem = compiled.memory_analysis()
    cost = compiled.cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost
    tokens = args.batch * args.seq
    attn = 2 * c["layers"] * c["heads"] * c["head_dim"] * args.seq * tokens  # causal QK^T + PV
    model_flops = (6 * n_params * tokens + 3 * attn) if args.program == "train" else (
        2 * n_params * tokens + attn)
    chips = args.fsdp * args.tp
    print(json.dumps({
        "reference": "jax", "program": args.program, "topology": jax_topology_name(args.topology),
        "device_kind": topo.devices[0].device_kind, "partitions": chips,
        "batch": args.batch, "seq": args.seq, "layers": c["layers"], "remat": args.remat,
        "scan": args.scan, "parameters": n_params,
        "compile_seconds": round(seconds, 3),
        "argument_bytes": mem.argument_size_in_bytes, "output_bytes": mem.output_size_in_bytes,
        "alias_bytes": mem.alias_size_in_bytes, "temp_bytes": mem.temp_size_in_bytes,
        "generated_code_bytes": mem.generated_code_size_in_bytes,
        "flops": cost.get("flops", 0.0), "bytes_accessed": cost.get("bytes accessed", 0.0),
        "model_flops_per_chip": model_flops / chips,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
