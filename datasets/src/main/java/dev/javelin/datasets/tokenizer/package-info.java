/**
 * Tokenizers: Hugging Face {@code tokenizer.json} BPE ({@link
 * dev.javelin.datasets.tokenizer.BpeTokenizer}), id-for-id with the {@code tokenizers} library for
 * byte-level files (GPT-2/SmolLM2, Qwen2/Qwen3, Llama 3) and SentencePiece-style ones (Llama 2,
 * Gemma, Gemma 3), and a character tokenizer for tiny models; both created by {@link
 * dev.javelin.datasets.tokenizer.Tokenizers}.
 */
package dev.javelin.datasets.tokenizer;
