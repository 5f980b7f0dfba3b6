/** KL in the reward and its fixed/adaptive coefficient controllers. */
package dev.javelin.grpo.kl;
