#!/usr/bin/env python3
"""PEFT LoRA parity fixture for the tpu-backend decoder model (run once, not in CI).

Puts a LoRA adapter (r=4, alpha=8, all seven linear layers of every block, non-zero random B) on
the qwen2-tiny checkpoint that tools/hf_fixtures.py wrote, saves it with save_pretrained (PEFT's
adapter_config.json + adapter_model.safetensors), and records for hf_fixtures' fixed batch and loss:
  logits   (B, T, V)   the adapted model's full forward
  logp, entropy (B, T-1), loss
  grad.<name>          gradient of the loss w.r.t. every lora_A / lora_B, named as in the adapter
                       file without PEFT's "base_model.model." prefix

Usage: tools/setup/venv.sh tools/requirements/peft.txt && .venv/bin/python tools/peft_fixtures.py
Writes tpu-backend/src/test/resources/hf/qwen2-tiny-lora/{adapter_config.json,
adapter_model.safetensors, fixture.safetensors}.

With --check DIR it instead loads the adapter in DIR (one Javelin wrote) onto qwen2-tiny with
peft.PeftModel.from_pretrained and prints the largest logit difference to DIR/logits.safetensors.
"""
import json
import pathlib
import sys

import torch
from peft import LoraConfig, PeftModel, get_peft_model
from safetensors.torch import load_file, save_file
from transformers import Qwen2ForCausalLM

from hf_fixtures import ENT_COEF, OUT, TEMPERATURE, batch

BASE = OUT / "qwen2-tiny"
TARGET = OUT / "qwen2-tiny-lora"
MODULES = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def base_model():
    return Qwen2ForCausalLM.from_pretrained(BASE, attn_implementation="eager", dtype=torch.float32)


def stats(model, ids, attn, resp):
    logits = model(input_ids=ids, attention_mask=attn).logits  # (B, T, V)
    logsm = torch.log_softmax(logits[:, :-1, :] / TEMPERATURE, dim=-1)
    logp = torch.gather(logsm, -1, ids[:, 1:, None])[..., 0]  # (B, T-1)
    entropy = -(logsm.exp() * logsm).sum(-1)  # (B, T-1)
    loss = (resp * (-logp + ENT_COEF * entropy)).sum() / resp.sum()
    return logits, logp, entropy, loss


def record():
    model = get_peft_model(
        base_model(),
        LoraConfig(r=4, lora_alpha=8, target_modules=MODULES, lora_dropout=0.0, bias="none",
                   task_type="CAUSAL_LM"))
    gen = torch.Generator().manual_seed(5)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_" in name:
                p.copy_(0.2 * torch.randn(p.shape, generator=gen))
    ids, attn, resp = batch(model.config.vocab_size)
    logits, logp, entropy, loss = stats(model, ids, attn, resp)
    loss.backward()
    tensors = {
        "logits": logits.detach().contiguous(),
        "logp": logp.detach().contiguous(),
        "entropy": entropy.detach().contiguous(),
        "loss": loss.detach().reshape(1),
    }
    for name, p in model.named_parameters():
        if p.grad is not None and "lora_" in name:
            plain = name.removeprefix("base_model.model.").replace(".default", "")
            tensors["grad." + plain] = p.grad.detach().contiguous()
    TARGET.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(TARGET)
    (TARGET / "README.md").unlink(missing_ok=True)
    cfg = TARGET / "adapter_config.json"  # no machine-specific path in the committed fixture
    cfg.write_text(json.dumps({**json.loads(cfg.read_text()), "base_model_name_or_path": None},
                              indent=2, sort_keys=True) + "\n")
    save_file(tensors, TARGET / "fixture.safetensors")
    print("loss", loss.item(), "files", sorted(x.name for x in TARGET.iterdir()))


def check(adapter_dir):
    model = PeftModel.from_pretrained(base_model(), adapter_dir)
    ids, attn, resp = batch(model.config.vocab_size)
    with torch.no_grad():
        logits = stats(model, ids, attn, resp)[0]
    want = load_file(pathlib.Path(adapter_dir) / "logits.safetensors")["logits"]
    valid = attn.bool()[..., None].expand_as(logits)
    diff = (logits - want).abs()[valid].max().item()
    rel = diff / want.abs()[valid].max().item()
    print(f"max |logits diff| {diff:.3e}, relative {rel:.3e}")
    return 0 if rel <= 1e-4 else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2]))
    record()
