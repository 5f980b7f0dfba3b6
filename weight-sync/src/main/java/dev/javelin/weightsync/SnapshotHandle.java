package dev.javelin.weightsync;

/**
 * A published snapshot as a transport names it: the version plus the transport's own reference (an
 * in-process key, a Ray object reference). Samplers receive handles, not bytes, so one publish
 * serves all.
 *
 * @param version the policy version
 * @param ref the transport-specific reference
 */
public record SnapshotHandle(long version, Object ref) {}
