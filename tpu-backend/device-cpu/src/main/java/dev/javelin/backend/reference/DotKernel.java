package dev.javelin.backend.reference;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.DotShapes;
import dev.javelin.backend.graph.Op;

/**
 * Naive {@code dot_general}: for every result element, a double-precision sum over the contracting
 * index space. Result coordinates are batch, lhs free, rhs free (StableHLO order).
 */
final class DotKernel {
  private DotKernel() {}

  /** {@code result} is the node's type: the operands', or f32 for bf16 operands. */
  static Value dotGeneral(Op.DotGeneral op, Value lhs, Value rhs, Shape out, DType result) {
    int[] lhsFree = DotShapes.free(lhs.shape().rank(), op.lhsBatch(), op.lhsContract());
    int[] rhsFree = DotShapes.free(rhs.shape().rank(), op.rhsBatch(), op.rhsContract());
    int[] lhsStrides = lhs.shape().strides();
    int[] rhsStrides = rhs.shape().strides();
    // Offsets of every contracting multi-index, in lhs and rhs.
    int[] contractDims = new int[op.lhsContract().length];
    for (int k = 0; k < contractDims.length; k++) {
      contractDims[k] = lhs.shape().dim(op.lhsContract()[k]);
    }
    Shape contract = Shape.of(contractDims);
    int[] lhsOff = new int[contract.intSize()];
    int[] rhsOff = new int[contract.intSize()];
    for (int j = 0; j < lhsOff.length; j++) {
      int[] c = Coords.unravel(contract, j);
      for (int k = 0; k < c.length; k++) {
        lhsOff[j] += c[k] * lhsStrides[op.lhsContract()[k]];
        rhsOff[j] += c[k] * rhsStrides[op.rhsContract()[k]];
      }
    }
    Value r = Value.zeros(result, out);
    int nb = op.lhsBatch().length;
    for (int i = 0; i < r.data().length; i++) {
      int[] c = Coords.unravel(out, i);
      int lb = 0;
      int rb = 0;
      for (int k = 0; k < nb; k++) {
        lb += c[k] * lhsStrides[op.lhsBatch()[k]];
        rb += c[k] * rhsStrides[op.rhsBatch()[k]];
      }
      for (int k = 0; k < lhsFree.length; k++) {
        lb += c[nb + k] * lhsStrides[lhsFree[k]];
      }
      for (int k = 0; k < rhsFree.length; k++) {
        rb += c[nb + lhsFree.length + k] * rhsStrides[rhsFree[k]];
      }
      double sum = 0;
      for (int j = 0; j < lhsOff.length; j++) {
        sum += lhs.get(lb + lhsOff[j]) * rhs.get(rb + rhsOff[j]);
      }
      r.data()[i] = Value.round(result, sum);
    }
    return r;
  }
}
