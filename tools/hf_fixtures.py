#!/usr/bin/env python3
"""Hugging Face parity fixtures for the tpu-backend decoder model (run once, not in CI).

Builds tiny random models with transformers -- Qwen2ForCausalLM (q/k/v biases, tied embeddings),
LlamaForCausalLM (no biases, untied LM head), Qwen3ForCausalLM (per-head q/k RMSNorm, head_dim
not hidden/heads), Qwen3MoeForCausalLM (top-k experts; qwen3_moe()) and Gemma3ForCausalLM
(sandwich norms, GeGLU, sliding-window and global layers; gemma3()) -- saves each with save_pretrained (safetensors,
f32), and records for one fixed ragged batch:
  logits   (B, T, V)   full forward, eager attention, right padding
  logp     (B, T-1)    log p(ids[:, t+1] | ids[:, :t+1]) at temperature TEMPERATURE
  entropy  (B, T-1)    entropy of the tempered next-token distribution
  grad.<hf name>       gradient of LOSS below w.r.t. every parameter
  greedy   (1, G)      GREEDY_TOKENS greedy continuation tokens of the first row's prompt
  router.<layer> (B*T, k)  the top-k experts each token is routed to (Mixture-of-Experts layers)
  aux_loss (1)         HF's load_balancing_loss_func over those layers, padding masked out
with LOSS = sum(mask * (-logp + ENT_COEF * entropy)) / sum(mask), mask = response mask (B, T-1).

Usage: tools/setup/venv.sh tools/requirements/hf.txt && .venv/bin/python tools/hf_fixtures.py
Writes tpu-backend/src/test/resources/hf/<name>/{config.json, model.safetensors, fixture.safetensors}.
"""
import pathlib

import torch
from safetensors.torch import save_file
from transformers import (Gemma3ForCausalLM, Gemma3TextConfig, LlamaConfig, LlamaForCausalLM,
                          Qwen2Config, Qwen2ForCausalLM, Qwen3Config, Qwen3ForCausalLM,
                          Qwen3MoeConfig, Qwen3MoeForCausalLM)

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "tpu-backend/src/test/resources/hf"
TEMPERATURE = 0.7
ENT_COEF = 0.1
COMMON = dict(
    vocab_size=96,
    hidden_size=32,
    intermediate_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    max_position_embeddings=64,
    rms_norm_eps=1e-6,
    hidden_act="silu",
)
# (B, T) = (3, 10); row lengths 10, 7, 4 (right padding with id 0).
LENGTHS = [10, 7, 4]
PROMPT_LEN = 3  # response mask covers predicted positions >= PROMPT_LEN
GREEDY_TOKENS = 8


def randomise(model, seed, norm_offset=0.0):
    """Norm scales uniform in [0.5, 1.5): stored as they are, or less norm_offset where the model
    scales by (norm_offset + w) (Gemma's (1 + w)); other weights N(0, 0.15^2)."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.copy_(0.5 - norm_offset + torch.rand(p.shape, generator=gen))
            else:
                p.copy_(0.15 * torch.randn(p.shape, generator=gen))


def batch(vocab):
    gen = torch.Generator().manual_seed(7)
    b, t = len(LENGTHS), max(LENGTHS)
    ids = torch.randint(1, vocab, (b, t), generator=gen)
    attn = torch.zeros(b, t, dtype=torch.long)
    for i, n in enumerate(LENGTHS):
        attn[i, :n] = 1
        ids[i, n:] = 0
    # mask over predicted tokens ids[:, 1:]: inside the row and past the prompt
    resp = attn[:, 1:].clone().float()
    resp[:, : PROMPT_LEN - 1] = 0
    return ids, attn, resp


def record(name, model, greedy=False):
    """Saves the model and its fixture."""
    out = OUT / name
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out, safe_serialization=True)
    for extra in ("generation_config.json",):
        (out / extra).unlink(missing_ok=True)
    ids, attn, resp = batch(model.config.vocab_size)
    model.zero_grad()
    logits = model(input_ids=ids, attention_mask=attn).logits  # (B, T, V)
    scaled = logits[:, :-1, :] / TEMPERATURE
    logsm = torch.log_softmax(scaled, dim=-1)
    logp = torch.gather(logsm, -1, ids[:, 1:, None])[..., 0]  # (B, T-1)
    entropy = -(logsm.exp() * logsm).sum(-1)  # (B, T-1)
    loss = (resp * (-logp + ENT_COEF * entropy)).sum() / resp.sum()
    loss.backward()
    tensors = {
        "input_ids": ids.to(torch.int32).contiguous(),
        "attention_mask": attn.to(torch.float32).contiguous(),
        "response_mask": resp.contiguous(),
        "temperature": torch.tensor([TEMPERATURE]),
        "ent_coef": torch.tensor([ENT_COEF]),
        "logits": logits.detach().contiguous(),
        "logp": logp.detach().contiguous(),
        "entropy": entropy.detach().contiguous(),
        "loss": loss.detach().reshape(1),
    }
    for pname, p in model.named_parameters():
        tensors["grad." + pname] = p.grad.detach().contiguous()
    tensors.update(routing(model, ids, attn))
    if greedy:
        with torch.no_grad():
            prompt = ids[:1, :PROMPT_LEN]
            out_ids = model.generate(prompt, attention_mask=torch.ones_like(prompt),
                                     max_new_tokens=GREEDY_TOKENS, do_sample=False,
                                     eos_token_id=None, pad_token_id=0)
        tensors["greedy"] = out_ids[:, PROMPT_LEN:].to(torch.int32).contiguous()
    save_file(tensors, out / "fixture.safetensors")
    print(name, "loss", loss.item(), "files", sorted(x.name for x in out.iterdir()))


def routing(model, ids, attn):
    """The top-k experts of every token at each Mixture-of-Experts layer, and the aux loss."""
    if not hasattr(model.config, "num_experts"):
        return {}
    from transformers.models.qwen3_moe.modeling_qwen3_moe import load_balancing_loss_func
    with torch.no_grad():
        out = model(input_ids=ids, attention_mask=attn, output_router_logits=True)
    k = model.config.num_experts_per_tok
    moe = [i for i, layer in enumerate(model.model.layers) if hasattr(layer.mlp, "gate")]
    tensors = {}
    for layer, logits in zip(moe, out.router_logits):
        top = torch.topk(torch.softmax(logits.float(), dim=-1), k, dim=-1).indices
        tensors[f"router.{layer}"] = top.to(torch.int32).contiguous()
    aux = load_balancing_loss_func(out.router_logits, model.config.num_experts, k, attn)
    tensors["aux_loss"] = aux.detach().reshape(1).float()
    return tensors


def qwen3_moe():
    """Qwen3-MoE, 4 experts, top 2: qwen3-moe-tiny without renormalisation and with block 1 a dense
    MLP (mlp_only_layers); qwen3-moe-routed-tiny renormalised with every block routed (what
    llama.cpp's qwen3moe can hold: tools/gguf_family_fixtures.py converts it)."""
    shapes = dict(head_dim=16, rope_theta=1_000_000.0, tie_word_embeddings=False,
                  attention_bias=False, num_experts=4, num_experts_per_tok=2,
                  moe_intermediate_size=16, decoder_sparse_step=1,
                  attn_implementation="eager", torch_dtype="float32")
    for name, seed, extra in (
            ("qwen3-moe-tiny", 4, dict(num_hidden_layers=3, norm_topk_prob=False,
                                       mlp_only_layers=[1])),
            ("qwen3-moe-routed-tiny", 5, dict(norm_topk_prob=True, mlp_only_layers=[]))):
        model = Qwen3MoeForCausalLM(Qwen3MoeConfig(**(COMMON | extra), **shapes))
        randomise(model, seed)
        record(name, model.float(), greedy=True)


def gemma3():
    """Gemma 3 text. gemma3-tiny: a 4-token window (shorter than the 10-token rows, so the window
    masks keys), blocks sliding, global, sliding; the global rotary scaled linearly by 2 and the
    local base its own; scores scaled by query_pre_attn_scalar (not head_dim); logits soft-capped
    below their largest value, where tanh bends (attn_logit_softcapping is set too, and Gemma 3's
    attention does not apply it); the tied head.
    gemma3-pattern-tiny: what llama.cpp's gemma3 can hold (tools/gguf_family_fixtures.py converts
    it): six blocks of the default pattern (the sixth global), the local base 10000, scores scaled
    by head_dim, a linear global scaling of 8."""
    common = {k: v for k, v in COMMON.items() if k != "hidden_act"}
    shapes = dict(head_dim=16, hidden_activation="gelu_pytorch_tanh", tie_word_embeddings=True,
                  attention_bias=False, attn_implementation="eager", torch_dtype="float32")
    local = {"rope_type": "default", "rope_theta": 10_000.0}
    for name, seed, factor, extra in (
            ("gemma3-tiny", 6, 2.0, dict(
                num_hidden_layers=3, sliding_window=4, query_pre_attn_scalar=24,
                attn_logit_softcapping=2.0, final_logit_softcapping=3.0,
                layer_types=["sliding_attention", "full_attention", "sliding_attention"])),
            ("gemma3-pattern-tiny", 7, 8.0, dict(
                num_hidden_layers=6, sliding_window=3, query_pre_attn_scalar=16))):
        rope = {"full_attention": {"rope_type": "linear", "factor": factor,
                                   "rope_theta": 1_000_000.0},
                "sliding_attention": dict(local)}
        model = Gemma3ForCausalLM(Gemma3TextConfig(**(common | extra), rope_parameters=rope,
                                                   **shapes))
        randomise(model, seed, norm_offset=1.0)
        record(name, model.float(), greedy=True)


def adamw_fixture():
    """torch.optim.AdamW + clip_grad_norm_ over three steps (the last one with a large gradient
    that clipping scales down), for the Java AdamW program."""
    gen = torch.Generator().manual_seed(11)
    params = [torch.nn.Parameter(torch.randn(3, 4, generator=gen)),
              torch.nn.Parameter(torch.randn(5, generator=gen))]
    opt = torch.optim.AdamW(params, lr=0.01, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)
    out = {"w0.init": params[0].detach().clone(), "w1.init": params[1].detach().clone()}
    lrs = [0.01, 0.005, 0.02]
    for step, lr in enumerate(lrs):
        for group in opt.param_groups:
            group["lr"] = lr
        scale = 30.0 if step == 2 else 1.0
        for i, p in enumerate(params):
            p.grad = scale * torch.randn(p.shape, generator=gen)
            out[f"w{i}.grad{step}"] = p.grad.detach().clone()
        norm = torch.nn.utils.clip_grad_norm_(params, max_norm=1.0)
        out[f"norm{step}"] = norm.detach().reshape(1)
        opt.step()
        for i, p in enumerate(params):
            out[f"w{i}.after{step}"] = p.detach().clone()
    out["lr"] = torch.tensor(lrs)
    save_file({k: v.contiguous() for k, v in out.items()}, OUT / "adamw.safetensors")


def main():
    adamw_fixture()
    torch.manual_seed(0)
    qwen = Qwen2ForCausalLM(
        Qwen2Config(**COMMON, rope_theta=1_000_000.0, tie_word_embeddings=True,
                    attn_implementation="eager", torch_dtype="float32"))
    randomise(qwen, 1)
    record("qwen2-tiny", qwen.float())
    llama = LlamaForCausalLM(
        LlamaConfig(**COMMON, rope_theta=10_000.0, tie_word_embeddings=False,
                    attention_bias=False, attn_implementation="eager", torch_dtype="float32"))
    randomise(llama, 2)
    record("llama-tiny", llama.float())
    qwen3 = Qwen3ForCausalLM(
        Qwen3Config(**COMMON, head_dim=16, rope_theta=1_000_000.0, tie_word_embeddings=True,
                    attention_bias=False, attn_implementation="eager", torch_dtype="float32"))
    randomise(qwen3, 3)
    record("qwen3-tiny", qwen3.float(), greedy=True)
    qwen3_moe()
    gemma3()


if __name__ == "__main__":
    main()
