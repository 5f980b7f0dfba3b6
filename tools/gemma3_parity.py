"""Reference logits and greedy continuations of Gemma 3 270M (Q4_K_M GGUF) in transformers.

  (requirements: tools/requirements/gemma3-parity.txt)
  python tools/gemma3_parity.py <gemma-3-270m-q4_k_m.gguf> \
      ../shared/datasets/gsm8k/test.jsonl tpu-backend/src/test/resources/gemma3/parity.json

transformers reads the GGUF itself (from_pretrained(..., gguf_file=...)): it dequantises every
tensor to f32, undoes the converter's +1 on Gemma's norm weights and builds Gemma3ForCausalLM
and the tokenizer from the metadata. Runs in f32 with eager attention. Writes, as token ids (the
prompt texts too, for the tokenizer's own checks):
  logits: 4 prompts (BOS first, as the GGUF asks); for the last 4 positions, the top-20 logits
          (ids and values) and the position's max |logit|;
  greedy: 8 GSM8K test questions as "Question: ...\nAnswer:", 64 greedy tokens each, no EOS stop.
Gemma 3 270M is a pretrained (not instruction-tuned) model and its GGUF carries no chat template.
"""

import json
import sys
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

TOP, LAST, NEW_TOKENS = 20, 4, 64


def main() -> None:
    gguf_path, gsm8k, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(
        str(gguf_path.parent), gguf_file=gguf_path.name, dtype=torch.float32,
        attn_implementation="eager").eval()
    tok = AutoTokenizer.from_pretrained(str(gguf_path.parent), gguf_file=gguf_path.name)
    print(type(model).__name__, model.config)
    texts = ["The capital of France is", "def fibonacci(n):\n    ",
             "1, 1, 2, 3, 5, 8, 13,", "Once upon a time, in a small village,"]
    logits = []
    with torch.no_grad():
        for text in texts:
            ids = tok(text)["input_ids"]
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
            prompt = "Question: " + q + "\nAnswer:"
            ids = tok(prompt)["input_ids"]
            new, past, x = [], None, torch.tensor([ids])
            for _ in range(NEW_TOKENS):
                o = model(x, past_key_values=past, use_cache=True)
                past = o.past_key_values
                nxt = int(o.logits[0, -1].argmax())
                new.append(nxt)
                x = torch.tensor([[nxt]])
            greedy.append({"prompt_text": prompt, "prompt": ids, "continuation": new,
                           "text": tok.decode(new)})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"model": gguf_path.name, "top": TOP, "logits": logits,
                               "greedy": greedy}, indent=1) + "\n")
    print("wrote", out, [g["text"][:60] for g in greedy[:3]])


if __name__ == "__main__":
    main()
