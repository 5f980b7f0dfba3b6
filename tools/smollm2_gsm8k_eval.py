"""Greedy GSM8K accuracy of SmolLM2-135M-Instruct in transformers, next to `javelin eval`.

Reads the prompts Javelin evaluated (eval_generations.jsonl of a `./javelin eval` run: the user
message after the recipe's template), generates greedily with transformers `generate` on the same
dequantised f32 weights (batched, left padding, same response budget), scores with VeRL's gsm8k
reward and prints accuracy, time, tokens/s and how many responses equal Javelin's.

  /tmp/venv/bin/python tools/smollm2_gsm8k_eval.py <model.gguf> <run dir> <gsm8k test.jsonl> \
      [--max-new-tokens 256] [--threads 2]

Needs tools/requirements/smollm2-parity.txt (torch, transformers, gguf).
"""

import argparse
import json
import time
from pathlib import Path

import torch
import transformers
from transformers import AutoTokenizer

import rewards_verl
import smollm2_parity


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("gguf")
    ap.add_argument("run_dir")
    ap.add_argument("gsm8k")
    ap.add_argument("--max-new-tokens", type=int, default=256)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    javelin = [json.loads(line) for line in open(Path(a.run_dir) / "eval_generations.jsonl")]
    answers = {}
    for line in open(a.gsm8k, encoding="utf-8"):
        row = json.loads(line)
        answers[row["question"]] = row["answer"].split("####")[-1].strip().replace(",", "")
    model = smollm2_parity.load(a.gguf)
    gguf = Path(a.gguf)
    tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    tok.padding_side = "left"
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    chats = [tok.apply_chat_template([{"role": "user", "content": j["prompt"]}],
                                     add_generation_prompt=True, tokenize=False) for j in javelin]
    batch = tok(chats, add_special_tokens=False, return_tensors="pt", padding=True)
    t0 = time.perf_counter()
    with torch.no_grad():
        out = model.generate(**batch, max_new_tokens=a.max_new_tokens, do_sample=False,
                             eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    seconds = time.perf_counter() - t0
    new = out[:, batch["input_ids"].shape[1]:]
    gsm8k = rewards_verl.load("gsm8k")
    correct, same, tokens = 0, 0, 0
    for j, ids in zip(javelin, new):
        ids = [int(t) for t in ids if int(t) != tok.pad_token_id]
        if tok.eos_token_id in ids:
            ids = ids[: ids.index(tok.eos_token_id)]
        tokens += len(ids)
        text = tok.decode(ids, skip_special_tokens=True)
        truth = next((v for q, v in answers.items() if q.strip() in j["prompt"]), None)
        correct += gsm8k.compute_score(text, truth) > 0 if truth is not None else 0
        same += text.strip() == j["response"].strip()
    n = len(javelin)
    print(f"transformers {transformers.__version__} (torch {torch.__version__}): {n} prompts, accuracy {correct / n:.1%}, "
          f"{seconds:.1f} s, {tokens} response tokens, {tokens / seconds:.1f} tok/s, "
          f"{a.threads} threads; {same}/{n} responses identical to Javelin's")


if __name__ == "__main__":
    main()
