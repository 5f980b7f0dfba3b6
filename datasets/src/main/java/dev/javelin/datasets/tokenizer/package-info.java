/**
 * Tokenizers: Hugging Face {@code tokenizer.json} byte-level BPE ({@link
 * dev.javelin.datasets.tokenizer.BpeTokenizer}), id-for-id with the {@code tokenizers} library for
 * Qwen2/Qwen3 and Llama 3, and a character tokenizer for tiny models; both created by {@link
 * dev.javelin.datasets.tokenizer.Tokenizers}.
 */
package dev.javelin.datasets.tokenizer;
