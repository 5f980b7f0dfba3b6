package dev.javelin.backend.reference;

import dev.javelin.backend.Shape;
import java.util.List;

/**
 * Naive kernels for data-dependent indexing. Dynamic slice starts are clamped so the window fits,
 * and gather ids are clamped into the table, as StableHLO does; scatter-add skips out-of-range ids,
 * as {@code stablehlo.scatter} does.
 */
final class IndexKernels {
  private IndexKernels() {}

  static Value dynamicUpdateSlice(Value operand, Value update, List<Value> starts) {
    int[] s = clampedStarts(operand.shape(), update.shape(), starts);
    double[] out = operand.data().clone();
    int[] c = new int[s.length];
    for (int i = 0; i < update.data().length; i++) {
      int[] u = Coords.unravel(update.shape(), i);
      for (int k = 0; k < c.length; k++) {
        c[k] = s[k] + u[k];
      }
      out[Coords.ravel(operand.shape(), c)] = update.get(i);
    }
    return new Value(operand.dtype(), operand.shape(), out);
  }

  /** Row b of update written at index[b] along axis of row b; out-of-range rows skipped. */
  static Value updateSlots(Value operand, Value update, Value index, int axis) {
    double[] out = operand.data().clone();
    for (int i = 0; i < update.data().length; i++) {
      int[] c = Coords.unravel(update.shape(), i);
      int at = (int) index.get(c[0]);
      if (at < 0 || at >= operand.shape().dim(axis)) {
        continue;
      }
      c[axis] = at;
      out[Coords.ravel(operand.shape(), c)] = update.get(i);
    }
    return new Value(operand.dtype(), operand.shape(), out);
  }

  static Value dynamicSlice(Value operand, List<Value> starts, Shape out) {
    int[] s = clampedStarts(operand.shape(), out, starts);
    Value r = Value.zeros(operand.dtype(), out);
    int[] c = new int[s.length];
    for (int i = 0; i < r.data().length; i++) {
      int[] w = Coords.unravel(out, i);
      for (int k = 0; k < c.length; k++) {
        c[k] = s[k] + w[k];
      }
      r.data()[i] = operand.get(Coords.ravel(operand.shape(), c));
    }
    return r;
  }

  private static int[] clampedStarts(Shape operand, Shape window, List<Value> starts) {
    int[] s = new int[operand.rank()];
    for (int k = 0; k < s.length; k++) {
      s[k] = Coords.clamp((int) starts.get(k).get(0), 0, operand.dim(k) - window.dim(k));
    }
    return s;
  }

  /** table (N, D...) gathered by ids S gives S + (D...). */
  static Value gather(Value table, Value ids, Shape out) {
    int rows = table.shape().dim(0);
    int row = rows == 0 ? 0 : table.shape().intSize() / rows;
    Value r = Value.zeros(table.dtype(), out);
    for (int s = 0; s < ids.data().length; s++) {
      int id = Coords.clamp((int) ids.get(s), 0, rows - 1);
      System.arraycopy(table.data(), id * row, r.data(), s * row, row);
    }
    return r;
  }

  /** ids S and updates S + (D...) give a (rows, D...) table of summed updates. */
  static Value scatterAdd(Value ids, Value updates, Shape out) {
    int rows = out.dim(0);
    int row = rows == 0 ? 0 : out.intSize() / rows;
    Value r = Value.zeros(updates.dtype(), out);
    for (int s = 0; s < ids.data().length; s++) {
      int id = (int) ids.get(s);
      if (id < 0 || id >= rows) {
        continue;
      }
      for (int j = 0; j < row; j++) {
        int o = id * row + j;
        r.data()[o] = Value.round(updates.dtype(), r.data()[o] + updates.get(s * row + j));
      }
    }
    return r;
  }
}
