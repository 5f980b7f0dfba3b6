/** Continuous batching over decode slots and the token model it drives. */
package dev.javelin.sampler.engine;
