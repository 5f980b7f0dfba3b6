/**
 * Lowering of {@link dev.javelin.backend.graph.Program}s to StableHLO text: one MLIR module with
 * {@code func.func public @main} per program, one StableHLO op per graph node, weights and inputs
 * as function arguments. The text is what an {@code xla:*} device hands to PJRT.
 */
package dev.javelin.backend.stablehlo;
