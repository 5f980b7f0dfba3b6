/**
 * XLA devices ({@code xla:cpu}, {@code xla:gpu}, {@code tpu}) through the PJRT C API: a JNI shim
 * over a plugin's function table ({@link dev.javelin.backend.xla.PjrtNative}), plugin discovery and
 * version checks, the {@link dev.javelin.backend.xla.XlaDevice} that compiles StableHLO text and
 * keeps buffers resident, a compile cache in memory and on disk, and input/output aliasing ({@link
 * dev.javelin.backend.Donation}, written by {@code AliasAnnotation}) for in-place train steps.
 */
package dev.javelin.backend.xla;
