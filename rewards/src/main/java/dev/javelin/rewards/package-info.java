/**
 * Javelin rewards: the {@link dev.javelin.rewards.RewardFunction} SPI, the {@link
 * dev.javelin.rewards.RewardRegistry}, the data-source {@link
 * dev.javelin.rewards.DataSourceDispatcher} and the never-fatal {@link
 * dev.javelin.rewards.RewardScorer}. Built-ins live in {@code dev.javelin.rewards.builtin}.
 */
package dev.javelin.rewards;
