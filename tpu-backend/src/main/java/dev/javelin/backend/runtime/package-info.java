/**
 * Models and optimizers resident on a device: program caches, placement on meshes, memory
 * accounting and the slot decoder.
 */
package dev.javelin.backend.runtime;
