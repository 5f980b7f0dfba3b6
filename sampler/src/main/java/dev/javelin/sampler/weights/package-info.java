/** Loading weight snapshots that the trainer publishes. */
package dev.javelin.sampler.weights;
