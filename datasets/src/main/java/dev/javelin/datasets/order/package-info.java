/** Pieces of the data order: per-epoch permutations and the over-long prompt filter. */
package dev.javelin.datasets.order;
