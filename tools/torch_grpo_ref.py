#!/usr/bin/env python3
"""PyTorch reference of Javelin's `arith-sft` + `arith-grpo` recipes (docs/perf/grpo-loop.md).

Same setup as the Java recipes: 3-digit addition `a+b=` (a, b uniform in [0, 999]) through the
character tokenizer of dev.javelin.datasets.tokenizer.CharTokenizer (87 ids, <pad>=0 <bos>=1
<eos>=2), prompt = <bos> + "a+b=", response = digits of a+b then <eos>; a Llama-style decoder
(d=128, 3 layers, 4 heads, SwiGLU F=512, RMSNorm, RoPE, tied head: 0.80M parameters); 500
held-out prompts never trained on, scored by greedy exact match.

  sft:  cross-entropy on response tokens, AdamW, until held-out greedy accuracy reaches
        --sft-target (or --sft-steps), then saves a checkpoint.
  grpo: per step 32 prompts x 8 samples (temperature 1, KV-cache decode, <= 5 new tokens),
        binary exact-match reward, GRPO advantages (r - mean) / (std + 1e-6) per prompt,
        old log-probs recomputed (VeRL's order), PPO-clip 0.2, token-mean loss, no KL,
        AdamW + grad clip 1.0, mini-batches of 16 prompts (two optimizer steps per batch);
        greedy validation every --test-freq steps.

Prints one JSON line per event (sft/val/grpo step metrics/summary) with per-phase timings.
torch.set_num_threads(--threads) pins the intra-op threads (1 or 2 for the side-by-side).

  .venv/bin/python tools/torch_grpo_ref.py sft  --out /tmp/arith-sft.pt
  .venv/bin/python tools/torch_grpo_ref.py grpo --init /tmp/arith-sft.pt --minutes 10
  .venv/bin/python tools/torch_grpo_ref.py bench --init /tmp/arith-sft.pt --threads 1 --steps 20
"""

import argparse
import json
import random
import statistics
import sys
import time

import torch
import torch.nn.functional as F

ALPHABET = "\n 0123456789+-*/=()<>.,:;?!%^_'\"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
PAD, BOS, EOS = 0, 1, 2
VOCAB = 3 + len(ALPHABET)
MAX_NEW = 5  # 999 + 999 = 1998: four digits and <eos>


def encode(text):
    return [3 + ALPHABET.index(c) for c in text]


def decode(ids):
    out = []
    for i in ids:
        if i == EOS:
            break
        out.append(ALPHABET[i - 3] if i >= 3 else "?")
    return "".join(out)


# ----------------------------------------------------------------------------- data
def split(seed, train_size, held_out_size):
    """Disjoint held-out and train problems; held-out drawn first from its own stream."""
    taken, held, train = set(), [], []
    for rng, count, dst in ((random.Random(seed ^ 0x5DEECE66D), held_out_size, held),
                            (random.Random(seed), train_size, train)):
        while len(dst) < count:
            a, b = rng.randrange(1000), rng.randrange(1000)
            if (a, b) not in taken:
                taken.add((a, b))
                dst.append((a, b))
    return train, held


def prompt_ids(a, b):
    return [BOS] + encode(f"{a}+{b}=")


def left_pad(seqs):
    """(B, P) ids left-padded, (B, P) bool mask."""
    width = max(len(s) for s in seqs)
    ids = torch.full((len(seqs), width), PAD, dtype=torch.long)
    mask = torch.zeros((len(seqs), width), dtype=torch.bool)
    for i, s in enumerate(seqs):
        ids[i, width - len(s):] = torch.tensor(s)
        mask[i, width - len(s):] = True
    return ids, mask


# ----------------------------------------------------------------------------- model
class Block(torch.nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.heads, self.dh = heads, d // heads
        self.ln1 = torch.nn.RMSNorm(d, eps=1e-6)
        self.ln2 = torch.nn.RMSNorm(d, eps=1e-6)
        self.q = torch.nn.Linear(d, d, bias=False)
        self.k = torch.nn.Linear(d, d, bias=False)
        self.v = torch.nn.Linear(d, d, bias=False)
        self.o = torch.nn.Linear(d, d, bias=False)
        self.gate = torch.nn.Linear(d, ff, bias=False)
        self.up = torch.nn.Linear(d, ff, bias=False)
        self.down = torch.nn.Linear(ff, d, bias=False)

    def forward(self, x, cos, sin, bias, cache):
        b, t, d = x.shape
        h = self.ln1(x)
        q, k, v = (m(h).view(b, t, self.heads, self.dh).transpose(1, 2)
                   for m in (self.q, self.k, self.v))  # (B, H, T, Dh)
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        if cache is not None:
            if cache[0] is not None:
                k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
            cache[0], cache[1] = k, v
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)  # (B, H, T, Dh)
        x = x + self.o(a.transpose(1, 2).reshape(b, t, d))
        h = self.ln2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


def rope(x, cos, sin):
    half = x.shape[-1] // 2
    rot = torch.cat([-x[..., half:], x[..., :half]], -1)
    return x * cos + rot * sin


class Llama(torch.nn.Module):
    def __init__(self, d=128, layers=3, heads=4, ff=512, theta=10000.0):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, d)
        self.blocks = torch.nn.ModuleList(Block(d, heads, ff) for _ in range(layers))
        self.norm = torch.nn.RMSNorm(d, eps=1e-6)
        dh = d // heads
        self.register_buffer("inv_freq", theta ** (-torch.arange(0, dh, 2).float() / dh),
                             persistent=False)
        for p in self.parameters():
            if p.dim() == 2:
                torch.nn.init.normal_(p, std=0.02)

    def forward(self, ids, pos, key_mask, caches=None):
        """ids/pos (B, T); key_mask (B, S) bool over all keys so far. Returns logits (B, T, V)."""
        t, s = ids.shape[1], key_mask.shape[1]
        ang = pos[..., None].float() * self.inv_freq  # (B, T, Dh/2)
        cos = torch.cat([ang.cos(), ang.cos()], -1)[:, None]  # (B, 1, T, Dh)
        sin = torch.cat([ang.sin(), ang.sin()], -1)[:, None]
        causal = torch.ones(t, s, dtype=torch.bool).tril(s - t)  # (T, S)
        allowed = causal[None] & key_mask[:, None, :]  # (B, T, S)
        allowed = allowed | diag(t, s)
        x = self.embed(ids)
        for i, blk in enumerate(self.blocks):
            x = blk(x, cos, sin, allowed[:, None], None if caches is None else caches[i])
        return self.norm(x) @ self.embed.weight.T


def diag(t, s):
    """Each query may see its own key, so all-padding rows stay finite."""
    m = torch.zeros(t, s, dtype=torch.bool)
    m[torch.arange(t), torch.arange(s - t, s)] = True
    return m[None]


def param_count(model):
    return sum(p.numel() for p in model.parameters())


# ----------------------------------------------------------------------------- generation
@torch.no_grad()
def generate(model, prompts, temperature, gen):
    """Returns response ids (B, MAX_NEW) padded with PAD after <eos>, sampled log-probs (B, MAX_NEW),
    response mask (B, MAX_NEW). temperature 0 = greedy."""
    ids, mask = left_pad(prompts)
    b = ids.shape[0]
    pos = (mask.long().cumsum(1) - 1).clamp(min=0)
    caches = [[None, None] for _ in model.blocks]
    logits = model(ids, pos, mask, caches)[:, -1]
    next_pos = pos[:, -1] + 1
    out = torch.full((b, MAX_NEW), PAD, dtype=torch.long)
    logps = torch.zeros(b, MAX_NEW)
    rmask = torch.zeros(b, MAX_NEW, dtype=torch.bool)
    alive = torch.ones(b, dtype=torch.bool)
    key_mask = mask
    for step in range(MAX_NEW):
        if temperature > 0:
            lp = torch.log_softmax(logits / temperature, -1)
            tok = torch.multinomial(lp.exp(), 1, generator=gen)[:, 0]
        else:
            lp = torch.log_softmax(logits, -1)
            tok = lp.argmax(-1)
        out[:, step] = torch.where(alive, tok, PAD)
        logps[:, step] = lp.gather(1, tok[:, None])[:, 0] * alive
        rmask[:, step] = alive
        alive = alive & (tok != EOS)
        if step == MAX_NEW - 1 or not alive.any():
            break
        key_mask = torch.cat([key_mask, torch.ones(b, 1, dtype=torch.bool)], 1)
        logits = model(tok[:, None], next_pos[:, None], key_mask, caches)[:, -1]
        next_pos = next_pos + 1
    return out, logps, rmask


def evaluate(model, problems, batch=500):
    model.eval()
    correct = 0
    for i in range(0, len(problems), batch):
        chunk = problems[i:i + batch]
        out, _, _ = generate(model, [prompt_ids(a, b) for a, b in chunk], 0.0, None)
        correct += sum(decode(o.tolist()) == str(a + b) for o, (a, b) in zip(out, chunk))
    model.train()
    return correct / len(problems)


# ----------------------------------------------------------------------------- log-probs
def sequence_batch(prompts, responses, rmask):
    """Left-padded prompt + response: ids (B, T), key mask (B, T), positions, response slice."""
    pids, pmask = left_pad(prompts)
    ids = torch.cat([pids, responses], 1)
    mask = torch.cat([pmask, rmask], 1)
    pos = (mask.long().cumsum(1) - 1).clamp(min=0)
    return ids, mask, pos, pids.shape[1]


def response_logprobs(model, ids, mask, pos, p, temperature=1.0):
    """log p(response token | prefix) (B, R) and entropy (B, R) at the given temperature."""
    logits = model(ids, pos, mask)[:, p - 1:-1] / temperature  # (B, R, V)
    lp = torch.log_softmax(logits, -1)
    tok_lp = lp.gather(-1, ids[:, p:, None])[..., 0]
    entropy = -(lp.exp() * lp).sum(-1)
    return tok_lp, entropy


# ----------------------------------------------------------------------------- SFT
def sft(args):
    torch.manual_seed(args.seed)
    train, held = split(args.seed, args.train_size, 500)
    model = Llama()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0, betas=(0.9, 0.95))
    rng = random.Random(args.seed + 1)
    emit(event="sft_start", params=param_count(model), train=len(train), held_out=len(held))
    start, step, acc = time.perf_counter(), 0, 0.0
    while step < args.sft_steps:
        batch = [train[rng.randrange(len(train))] for _ in range(args.batch)]
        resp = [encode(str(a + b)) + [EOS] for a, b in batch]
        r = torch.full((len(batch), MAX_NEW), PAD, dtype=torch.long)
        rm = torch.zeros(len(batch), MAX_NEW, dtype=torch.bool)
        for i, s in enumerate(resp):
            r[i, :len(s)], rm[i, :len(s)] = torch.tensor(s), True
        ids, mask, pos, p = sequence_batch([prompt_ids(a, b) for a, b in batch], r, rm)
        lr = args.lr * min(1.0, (step + 1) / args.warmup)
        for g in opt.param_groups:
            g["lr"] = lr
        lp, _ = response_logprobs(model, ids, mask, pos, p)
        loss = -(lp * rm).sum() / rm.sum()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if step % args.test_freq == 0:
            acc = evaluate(model, held)
            emit(event="sft_val", step=step, loss=round(loss.item(), 4), acc=acc,
                 seconds=round(time.perf_counter() - start, 1))
            if acc >= args.sft_target:
                break
    torch.save({"model": model.state_dict(), "seed": args.seed, "sft_steps": step, "acc": acc},
               args.out)
    emit(event="sft_done", steps=step, acc=acc, seconds=round(time.perf_counter() - start, 1),
         out=args.out)


# ----------------------------------------------------------------------------- GRPO
def grpo_step(model, opt, batch, args, gen):
    """One GRPO step in VeRL's order; returns metrics with per-phase timings."""
    t0 = time.perf_counter()
    prompts = [prompt_ids(a, b) for a, b in batch for _ in range(args.n)]
    model.eval()
    resp, _, rmask = generate(model, prompts, args.temperature, gen)
    t1 = time.perf_counter()
    answers = [str(a + b) for a, b in batch for _ in range(args.n)]
    reward = torch.tensor([float(decode(r.tolist()) == ans) for r, ans in zip(resp, answers)])
    grouped = reward.view(-1, args.n)
    adv = ((grouped - grouped.mean(1, keepdim=True)) / (grouped.std(1, keepdim=True) + 1e-6))
    adv = adv.reshape(-1)  # (B,) broadcast over response tokens
    t2 = time.perf_counter()
    ids, mask, pos, p = sequence_batch(prompts, resp, rmask)
    with torch.no_grad():
        old_lp, _ = response_logprobs(model, ids, mask, pos, p, args.temperature)
    t3 = time.perf_counter()
    model.train()
    rows = len(prompts)
    mini = args.ppo_mini_batch * args.n
    stats = {"pg_loss": 0.0, "clipfrac": 0.0, "entropy": 0.0, "grad_norm": 0.0}
    updates = 0
    for _ in range(args.ppo_epochs):
        order = torch.randperm(rows, generator=gen)
        for s in range(0, rows, mini):
            idx = order[s:s + mini]
            m = rmask[idx].float()
            lp, ent = response_logprobs(model, ids[idx], mask[idx], pos[idx], p, args.temperature)
            ratio = torch.exp(lp - old_lp[idx])
            a = adv[idx, None]
            pg = torch.maximum(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip))
            loss = (pg * m).sum() / m.sum()  # token-mean
            opt.zero_grad(set_to_none=True)
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            updates += 1
            with torch.no_grad():
                stats["pg_loss"] += loss.item()
                stats["clipfrac"] += ((((ratio - 1).abs() > args.clip).float() * m).sum()
                                      / m.sum()).item()
                stats["entropy"] += ((ent * m).sum() / m.sum()).item()
                stats["grad_norm"] += gn.item()
    t4 = time.perf_counter()
    metrics = {k: round(v / updates, 5) for k, v in stats.items()}
    metrics.update(reward=round(reward.mean().item(), 4),
                   response_length=round(rmask.float().sum(1).mean().item(), 3),
                   gen_s=t1 - t0, reward_adv_s=t2 - t1, old_log_prob_s=t3 - t2,
                   update_actor_s=t4 - t3, step_s=t4 - t0)
    return metrics


def load_policy(args):
    torch.manual_seed(args.seed)
    model = Llama()
    state = torch.load(args.init)
    model.load_state_dict(state["model"])
    return model, state


def grpo(args):
    torch.set_num_threads(args.threads)
    model, state = load_policy(args)
    train, held = split(state["seed"], args.train_size, 500)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0, betas=(0.9, 0.999))
    gen = torch.Generator().manual_seed(args.seed)
    rng = random.Random(args.seed + 2)
    acc0 = evaluate(model, held)
    emit(event="grpo_start", acc=acc0, threads=args.threads, sft_steps=state["sft_steps"])
    start, step, times, best = time.perf_counter(), 0, [], acc0
    acc = acc0
    while step < args.steps and time.perf_counter() - start < args.minutes * 60:
        batch = [train[rng.randrange(len(train))] for _ in range(args.batch)]
        m = grpo_step(model, opt, batch, args, gen)
        step += 1
        times.append(m)
        if step % args.test_freq == 0:
            t = time.perf_counter()
            acc = evaluate(model, held)
            best = max(best, acc)
            start += time.perf_counter() - t  # validation time is not GRPO time
            emit(event="grpo_val", step=step, acc=acc, reward=m["reward"],
                 minutes=round((time.perf_counter() - start) / 60, 2),
                 step_s=round(statistics.median(x["step_s"] for x in times[-args.test_freq:]), 4),
                 **{k: m[k] for k in ("pg_loss", "entropy", "grad_norm", "response_length")})
    acc = evaluate(model, held)
    emit(event="grpo_done", steps=step, acc_start=acc0, acc_end=acc, acc_best=max(best, acc),
         minutes=round((time.perf_counter() - start) / 60, 2), **phase_medians(times))


def bench(args):
    """Median step time by phase over --steps GRPO steps (after 2 warm-up steps)."""
    torch.set_num_threads(args.threads)
    model, state = load_policy(args)
    train, _ = split(state["seed"], args.train_size, 500)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0)
    gen = torch.Generator().manual_seed(args.seed)
    rng = random.Random(args.seed + 2)
    times = []
    for i in range(args.steps + 2):
        m = grpo_step(model, opt, [train[rng.randrange(len(train))] for _ in range(args.batch)],
                      args, gen)
        if i >= 2:
            times.append(m)
    emit(event="bench", threads=args.threads, steps=args.steps, batch=args.batch, n=args.n,
         **phase_medians(times))


def phase_medians(times):
    keys = ("gen_s", "reward_adv_s", "old_log_prob_s", "update_actor_s", "step_s")
    return {k: round(statistics.median(t[k] for t in times), 4) for k in keys} if times else {}


def emit(**kv):
    print(json.dumps(kv), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("mode", choices=["sft", "grpo", "bench"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--train-size", type=int, default=100_000)
    ap.add_argument("--batch", type=int, default=None, help="prompts per step (sft: 64, grpo: 32)")
    ap.add_argument("--lr", type=float, default=None, help="sft: 2e-3, grpo: 2e-4")
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--sft-steps", type=int, default=20_000)
    ap.add_argument("--sft-target", type=float, default=0.45)
    ap.add_argument("--test-freq", type=int, default=None, help="sft: 200, grpo: 25")
    ap.add_argument("--out", default="/tmp/arith-sft.pt")
    ap.add_argument("--init", default="/tmp/arith-sft.pt")
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ppo-mini-batch", type=int, default=16, help="prompts per mini-batch")
    ap.add_argument("--ppo-epochs", type=int, default=1)
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--minutes", type=float, default=10.0)
    args = ap.parse_args()
    sft_mode = args.mode == "sft"
    args.batch = args.batch or (64 if sft_mode else 32)
    args.lr = args.lr or (2e-3 if sft_mode else 2e-4)
    args.test_freq = args.test_freq or (200 if sft_mode else 25)
    if sft_mode:
        torch.set_num_threads(args.threads)
    {"sft": sft, "grpo": grpo, "bench": bench}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
