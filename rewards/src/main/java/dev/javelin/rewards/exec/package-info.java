/** Execution support for the reward scorer: a pool whose stuck workers can be abandoned. */
package dev.javelin.rewards.exec;
