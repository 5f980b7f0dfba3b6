/**
 * The model's programs (train step, log-probs, prefill, decode) built over the graph, with their
 * input bindings and their layout over a dp/fsdp/tp mesh ({@link
 * dev.javelin.backend.program.ShardPlan}).
 */
package dev.javelin.backend.program;
