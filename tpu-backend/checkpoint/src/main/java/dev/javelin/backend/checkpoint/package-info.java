/**
 * Reading and writing model checkpoints: HF directories (config.json, safetensors, PEFT adapters)
 * and GGUF.
 */
package dev.javelin.backend.checkpoint;
