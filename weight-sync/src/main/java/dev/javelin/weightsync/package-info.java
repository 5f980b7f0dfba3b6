/**
 * Versioned weight snapshots from trainer to samplers: {@link
 * dev.javelin.weightsync.WeightSnapshot} packs named tensors little-endian with a checksum, {@link
 * dev.javelin.weightsync.WeightTransport} moves them, {@link
 * dev.javelin.weightsync.SnapshotReceiver} refuses stale, mismatched or corrupt ones.
 */
package dev.javelin.weightsync;
