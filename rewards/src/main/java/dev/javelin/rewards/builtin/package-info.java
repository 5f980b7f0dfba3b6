/** The built-in reward functions and their {@link dev.javelin.rewards.RewardFunctionProvider}s. */
package dev.javelin.rewards.builtin;
