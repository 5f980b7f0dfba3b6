/** Advantage estimator implementations (group baselines, returns, whitening). */
package dev.javelin.grpo.advantage;
