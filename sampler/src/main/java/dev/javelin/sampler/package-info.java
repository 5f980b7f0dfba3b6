/**
 * Javelin sampler: the generation engine ({@link dev.javelin.sampler.SamplerEngine}, continuous
 * batching over the device KV cache with per-request seeded sampling) and its Ray actor ({@link
 * dev.javelin.sampler.SamplerActor}), plus the records shared with the trainer and driver.
 */
package dev.javelin.sampler;
