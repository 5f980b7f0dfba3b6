/**
 * AdamW as a graph program: its config, the learning-rate schedule and the fused optimizer
 * programs.
 */
package dev.javelin.backend.optim;
