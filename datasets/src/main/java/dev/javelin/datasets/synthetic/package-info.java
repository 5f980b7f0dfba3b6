/**
 * Synthetic tasks with exact ground truth for CPU-sized models: arithmetic ({@code
 * synthetic/arith}) and countdown ({@code synthetic/countdown}), deterministic by seed with
 * disjoint held-out sets.
 */
package dev.javelin.datasets.synthetic;
