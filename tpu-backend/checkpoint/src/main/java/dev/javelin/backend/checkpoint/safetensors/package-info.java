/** A bounds-checked safetensors reader and writer and the HF checkpoint directory over it. */
package dev.javelin.backend.checkpoint.safetensors;
