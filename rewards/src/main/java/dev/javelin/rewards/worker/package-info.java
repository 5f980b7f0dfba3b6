/**
 * Reward workers: user reward code scored in child JVMs, spoken to over length-prefixed UTF-8 JSON
 * frames on their stdin/stdout, so that a reward that exits, runs out of memory, hangs or spawns
 * threads costs a counted error or timeout and a replaced worker, never the run.
 */
package dev.javelin.rewards.worker;
