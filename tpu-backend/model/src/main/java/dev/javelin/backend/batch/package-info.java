/**
 * Token batches as programs see them: padded sequences, shared prompt prefixes, and the LM head's
 * vocabulary blocks.
 */
package dev.javelin.backend.batch;
