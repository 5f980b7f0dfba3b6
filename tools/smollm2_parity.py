"""Reference logits and greedy continuations of SmolLM2-135M-Instruct (Q4_1 GGUF) in transformers.

  python tools/smollm2_parity.py <SmolLM2-135M-Instruct.Q4_1.gguf> \
      ../shared/datasets/gsm8k/test.jsonl tpu-backend/src/test/resources/smollm2/parity.json

The GGUF is dequantised with gguf-py (gguf.quants), llama.cpp's q/k rotary row permutation is
undone, and the f32 weights are copied into a plain LlamaForCausalLM built from the GGUF metadata
(transformers loads GGUFs but cannot save them, so this is the reference model). Writes, as token
ids (so the Java test needs no tokenizer):
  logits: 4 prompts; for the last 4 positions, the top-20 logits (ids and values) and the
          position's max |logit|;
  greedy: 8 GSM8K test questions in the chat template, 64 greedy tokens each, no EOS stop.
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch
from gguf import GGUFReader
from gguf import quants
from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

TOP, LAST, NEW_TOKENS = 20, 4, 64


def field(reader, key):
    return reader.fields[key].contents()


def unpermute(w: np.ndarray, heads: int) -> np.ndarray:
    # inverse of llama.cpp convert_hf_to_gguf.LlamaModel.permute
    return w.reshape(heads, w.shape[0] // heads // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def hf_name(name: str) -> str:
    fixed = {"token_embd.weight": "model.embed_tokens.weight",
             "output_norm.weight": "model.norm.weight", "output.weight": "lm_head.weight"}
    if name in fixed:
        return fixed[name]
    _, layer, rest = name.split(".", 2)
    sub = {"attn_norm.weight": "input_layernorm.weight", "attn_q.weight": "self_attn.q_proj.weight",
           "attn_k.weight": "self_attn.k_proj.weight", "attn_v.weight": "self_attn.v_proj.weight",
           "attn_output.weight": "self_attn.o_proj.weight",
           "ffn_norm.weight": "post_attention_layernorm.weight",
           "ffn_gate.weight": "mlp.gate_proj.weight", "ffn_up.weight": "mlp.up_proj.weight",
           "ffn_down.weight": "mlp.down_proj.weight"}[rest]
    return f"model.layers.{layer}.{sub}"


def load(path: str) -> LlamaForCausalLM:
    r = GGUFReader(path)
    heads, kv = field(r, "llama.attention.head_count"), field(r, "llama.attention.head_count_kv")
    names = {t.name for t in r.tensors}
    config = LlamaConfig(
        vocab_size=len(r.fields["tokenizer.ggml.tokens"].data),
        hidden_size=field(r, "llama.embedding_length"),
        intermediate_size=field(r, "llama.feed_forward_length"),
        num_hidden_layers=field(r, "llama.block_count"),
        num_attention_heads=heads, num_key_value_heads=kv,
        rms_norm_eps=field(r, "llama.attention.layer_norm_rms_epsilon"),
        rope_theta=field(r, "llama.rope.freq_base"),
        max_position_embeddings=field(r, "llama.context_length"),
        tie_word_embeddings="output.weight" not in names,
        bos_token_id=field(r, "tokenizer.ggml.bos_token_id"),
        eos_token_id=field(r, "tokenizer.ggml.eos_token_id"),
        torch_dtype="float32")
    model = LlamaForCausalLM(config).float().eval()
    state = {}
    for t in r.tensors:
        w = quants.dequantize(t.data, t.tensor_type).astype(np.float32)
        w = w.reshape([int(d) for d in reversed(t.shape)])
        if t.name.endswith("attn_q.weight"):
            w = unpermute(w, heads)
        elif t.name.endswith("attn_k.weight"):
            w = unpermute(w, kv)
        state[hf_name(t.name)] = torch.from_numpy(np.ascontiguousarray(w))
    missing, unexpected = model.load_state_dict(state, strict=False)
    assert not unexpected and all(m == "lm_head.weight" for m in missing), (missing, unexpected)
    model.tie_weights()
    return model


def main() -> None:
    gguf_path, gsm8k, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    torch.manual_seed(0)
    model = load(gguf_path)
    tok = AutoTokenizer.from_pretrained(str(Path(gguf_path).parent), gguf_file=Path(gguf_path).name)
    texts = ["The capital of France is", "def fibonacci(n):\n    ",
             "1, 1, 2, 3, 5, 8, 13,", "Once upon a time, in a small village,"]
    logits = []
    with torch.no_grad():
        for text in texts:
            ids = tok(text, add_special_tokens=False)["input_ids"]
            z = model(torch.tensor([ids])).logits[0]
            rows = []
            for p in range(len(ids) - LAST, len(ids)):
                v, i = torch.topk(z[p], TOP)
                rows.append({"position": p, "ids": i.tolist(), "logits": v.tolist(),
                             "max_abs": float(z[p].abs().max())})
            logits.append({"text": text, "tokens": ids, "positions": rows})
        greedy = []
        questions = [json.loads(row)["question"] for row in open(gsm8k, encoding="utf-8")][:8]
        for q in questions:
            chat = tok.apply_chat_template([{"role": "user", "content": q}],
                                           add_generation_prompt=True, tokenize=False)
            ids = tok(chat, add_special_tokens=False)["input_ids"]
            seq, new = torch.tensor([ids]), []
            past = None
            x = seq
            for _ in range(NEW_TOKENS):
                o = model(x, past_key_values=past, use_cache=True)
                past = o.past_key_values
                nxt = int(o.logits[0, -1].argmax())
                new.append(nxt)
                x = torch.tensor([[nxt]])
            greedy.append({"prompt": ids, "continuation": new, "text": tok.decode(new)})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"model": Path(gguf_path).name, "top": TOP, "logits": logits,
                               "greedy": greedy}, indent=1) + "\n")
    print("wrote", out, [g["text"][:40] for g in greedy[:2]])


if __name__ == "__main__":
    main()
