/** Choosing the next token: temperature, top-k/top-p filters and sampling. */
package dev.javelin.sampler.sampling;
