/** Entropy of the sampling distribution from logits at a temperature, and its VJP. */
package dev.javelin.grpo.entropy;
