/**
 * Ray wiring: trainer and sampler actors, placement, remote calls and their failure handling, and
 * the run registry.
 */
package dev.javelin.recipes.ray;
