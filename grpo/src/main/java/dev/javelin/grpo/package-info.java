/**
 * Javelin's GRPO algorithm library: VeRL's advantage estimators, policy losses, KL estimators and
 * loss aggregation as pure functions over flattened (B, T) arrays. No Ray, no I/O, no device.
 *
 * <p>Entry points: {@link dev.javelin.grpo.AdvantageEstimator} ({@code algorithm.adv_estimator}),
 * {@link dev.javelin.grpo.ActorLoss} (policy loss − entropy bonus + KL loss, with its exact
 * gradient), {@link dev.javelin.grpo.PolicyLossMode}, {@link dev.javelin.grpo.KlEstimator}, {@link
 * dev.javelin.grpo.LossAggMode}; DAPO pieces in {@code dapo}, rollout correction in {@code
 * correction}.
 */
package dev.javelin.grpo;
