#!/usr/bin/env python3
"""PyTorch CPU side of the model benchmark (bench/model-bench.sh runs it next to the Java one).

Same configs as dev.javelin.backend.bench.ModelBenchmark: tiny and small (Qwen2 layout, tied head,
q/k/v biases) and smollm2 (SmolLM2-135M-Instruct's Llama architecture, random weights), f32, eager
attention, torch.set_num_threads(THREADS).
  train:  fwd + bwd + clip_grad_norm_ + AdamW on (B, T) tokens, loss = masked mean of -log p
  decode: model.generate(greedy, KV cache) of NEW tokens for B prompts of PROMPT tokens
Prints one JSON line per measurement: engine, config, task, tokens_per_s (median), times.
Usage: .venv/bin/python tools/torch_bench.py --config tiny --task train [--batch 64 --seq 128 --iters 3]
"""
import argparse
import json
import statistics
import time

import torch
from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

CONFIGS = {
    # vocab, hidden, intermediate, layers, heads, kv heads, head dim, rope theta, rms eps
    "tiny": (4096, 256, 1024, 4, 8, 4, 32, 10000.0, 1e-6),
    "small": (16384, 512, 1792, 12, 8, 4, 64, 10000.0, 1e-6),
    "smollm2": (49152, 576, 1536, 30, 9, 3, 64, 100000.0, 1e-5),
}


def build(name, max_pos):
    v, d, f, layers, h, kv, hd, theta, eps = CONFIGS[name]
    llama = name == "smollm2"  # Llama layout: no q/k/v biases
    cls, model = (LlamaConfig, LlamaForCausalLM) if llama else (Qwen2Config, Qwen2ForCausalLM)
    cfg = cls(vocab_size=v, hidden_size=d, intermediate_size=f, num_hidden_layers=layers,
              num_attention_heads=h, num_key_value_heads=kv, head_dim=hd,
              max_position_embeddings=max_pos, rope_theta=theta, rms_norm_eps=eps,
              tie_word_embeddings=True, attn_implementation="eager")
    torch.manual_seed(0)
    return model(cfg).float()


def train(model, b, t, iters):
    gen = torch.Generator().manual_seed(1)
    ids = torch.randint(1, model.config.vocab_size, (b, t), generator=gen)
    mask = torch.ones(b, t - 1)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5, weight_decay=0.01)
    times = []
    for _ in range(iters + 1):
        start = time.perf_counter()
        logits = model(input_ids=ids).logits[:, :-1, :]
        logp = torch.log_softmax(logits, -1).gather(-1, ids[:, 1:, None])[..., 0]
        loss = -(logp * mask).sum() / mask.sum()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        times.append(time.perf_counter() - start)
    times = times[1:]  # first iteration warms up allocators
    return b * t / statistics.median(times), times


@torch.no_grad()
def decode(model, b, prompt, new, iters):
    gen = torch.Generator().manual_seed(2)
    ids = torch.randint(1, model.config.vocab_size, (b, prompt), generator=gen)
    attn = torch.ones_like(ids)
    times = []
    for _ in range(iters + 1):
        start = time.perf_counter()
        out = model.generate(input_ids=ids, attention_mask=attn, max_new_tokens=new,
                             min_new_tokens=new, do_sample=False, use_cache=True, pad_token_id=0)
        times.append(time.perf_counter() - start)
        assert out.shape[1] == prompt + new
    times = times[1:]
    return b * new / statistics.median(times), times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="tiny", choices=sorted(CONFIGS))
    ap.add_argument("--task", default="train", choices=["train", "decode"])
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--prompt", type=int, default=16)
    ap.add_argument("--new", type=int, default=64)
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    model = build(a.config, max(a.seq, a.prompt + a.new) + 16)
    if a.task == "train":
        tps, times = train(model, a.batch, a.seq, a.iters)
    else:
        model.eval()
        tps, times = decode(model, a.batch, a.prompt, a.new, a.iters)
    print(json.dumps({"engine": "pytorch-cpu", "torch": torch.__version__, "config": a.config,
                      "task": a.task, "batch": a.batch, "tokens_per_s": round(tps, 1),
                      "times_s": [round(x, 3) for x in times]}), flush=True)


if __name__ == "__main__":
    main()
