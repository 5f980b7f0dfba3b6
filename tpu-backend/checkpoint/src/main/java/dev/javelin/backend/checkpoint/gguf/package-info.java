/**
 * A bounds-checked GGUF reader: header, tensor table, llama.cpp tensor names and dequantisation.
 */
package dev.javelin.backend.checkpoint.gguf;
