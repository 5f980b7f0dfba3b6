/** Javelin grpo module. */
package dev.javelin.grpo;
