/**
 * SPMD sharding: a {@link dev.javelin.backend.spmd.Mesh} of devices with named axes, a per-value
 * {@link dev.javelin.backend.spmd.Sharding} (replicated, or tensor dimensions split over mesh
 * axes), the {@link dev.javelin.backend.spmd.ProgramSharding} a program carries for its arguments
 * and results, their GSPMD form for StableHLO, and the host-side split and gather of tensors.
 * Devices that partition programs ({@code xla:*}) read these annotations; XLA's SPMD partitioner
 * inserts the collectives.
 */
package dev.javelin.backend.spmd;
