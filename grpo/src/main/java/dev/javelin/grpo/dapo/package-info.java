/** DAPO pieces: dynamic sampling (group filter + accumulator) and overlong reward shaping. */
package dev.javelin.grpo.dapo;
