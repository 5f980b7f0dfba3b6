/**
 * The decoder: one home per architecture (the Architecture registry), its weights, LoRA adapters
 * and the block built from them.
 */
package dev.javelin.backend.model;
