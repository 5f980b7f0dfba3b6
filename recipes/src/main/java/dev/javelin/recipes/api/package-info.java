/**
 * GRPO from Java programs: build a {@link dev.javelin.recipes.api.RunSpec} in code (model, data,
 * algorithm, rollout and trainer sections, over the same validated records a recipe file fills),
 * pass reward functions as objects or lambdas, and {@link dev.javelin.recipes.api.GrpoRun#start}
 * it; the handle reports each step, the metrics and the final checkpoint. {@code javelin run} is a
 * user of this package. README.md ("Use from Java") and {@code examples/grpo-job} show it whole.
 */
package dev.javelin.recipes.api;
