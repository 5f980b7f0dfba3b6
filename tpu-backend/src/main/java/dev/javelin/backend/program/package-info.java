/**
 * The model's programs (train step, log-probs, prefill, decode) built over the graph, with their
 * input bindings.
 */
package dev.javelin.backend.program;
