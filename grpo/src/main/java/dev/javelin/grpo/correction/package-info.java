/** Rollout/training mismatch correction: truncated importance sampling and rejection sampling. */
package dev.javelin.grpo.correction;
