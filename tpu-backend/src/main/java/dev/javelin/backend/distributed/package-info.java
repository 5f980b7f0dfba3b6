/**
 * Trainer gangs without XLA collectives: a key-value coordination store served by rank 0 over TCP
 * and all-reduce sums built on it, so ranks in several processes (or threads) apply one update.
 */
package dev.javelin.backend.distributed;
