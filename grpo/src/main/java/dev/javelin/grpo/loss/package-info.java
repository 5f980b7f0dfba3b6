/** Policy-loss implementations: per-token losses and their derivatives. */
package dev.javelin.grpo.loss;
