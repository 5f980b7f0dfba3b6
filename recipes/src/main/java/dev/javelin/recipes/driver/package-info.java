/**
 * The GRPO loop: batches, generation, scoring, advantages, policy updates, validation, checkpoints
 * and step metrics.
 */
package dev.javelin.recipes.driver;
