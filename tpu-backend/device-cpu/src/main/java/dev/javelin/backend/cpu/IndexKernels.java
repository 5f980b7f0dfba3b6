package dev.javelin.backend.cpu;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import java.util.OptionalDouble;

/**
 * Kernels whose reads depend on data: dynamic slices (starts clamped so the window fits), row
 * gather (ids clamped into the table) and scatter-add (out-of-range ids skipped), matching
 * StableHLO and the reference device.
 */
final class IndexKernels {
  private IndexKernels() {}

  /** Clamped start of each dimension, read from i32 scalar values. */
  static int[] starts(Frame frame, int[] startValues, Shape operand, Shape window) {
    int[] s = new int[startValues.length];
    for (int d = 0; d < s.length; d++) {
      int v = ((int[]) frame.values[startValues[d]])[0];
      s[d] = Math.max(0, Math.min(v, operand.dim(d) - window.dim(d)));
    }
    return s;
  }

  /**
   * Copies a window between a big array and a small one: {@code toWindow} reads the window at
   * {@code starts} of {@code big} into {@code small}, otherwise writes {@code small} into it.
   */
  static void window(
      Object big, Shape bigShape, int[] starts, Object small, Shape window, boolean toWindow) {
    int rank = window.rank();
    if (window.size() == 0) {
      return;
    }
    if (rank == 0) {
      System.arraycopy(toWindow ? big : small, 0, toWindow ? small : big, 0, 1);
      return;
    }
    int[] bigStrides = bigShape.strides();
    int run = window.dim(rank - 1);
    int rows = window.intSize() / run;
    int[] c = new int[rank - 1];
    for (int r = 0; r < rows; r++) {
      int pos = starts[rank - 1];
      for (int d = 0; d < rank - 1; d++) {
        pos += (starts[d] + c[d]) * bigStrides[d];
      }
      if (toWindow) {
        System.arraycopy(big, pos, small, r * run, run);
      } else {
        System.arraycopy(small, r * run, big, pos, run);
      }
      for (int d = rank - 2; d >= 0 && ++c[d] == window.dim(d); d--) {
        c[d] = 0;
      }
    }
  }

  /** {@code dynamic_slice}. */
  record DynamicSlice(int out, int operand, int[] startValues, Shape operandShape, Shape window)
      implements Kernel {
    @Override
    public void run(Frame frame) {
      int[] s = starts(frame, startValues, operandShape, window);
      IndexKernels.window(frame.values[operand], operandShape, s, frame.values[out], window, true);
    }

    @Override
    public int[] reads() {
      return concat(operand, startValues);
    }

    @Override
    public int writes() {
      return out;
    }
  }

  /**
   * {@code dynamic_update_slice}: a copy of the operand with the update written at the starts. An
   * operand that is a constant (autodiff's zeros, an empty prefill cache) is filled, never stored.
   */
  record DynamicUpdateSlice(
      int out,
      int operand,
      int update,
      int[] startValues,
      Shape operandShape,
      Shape updateShape,
      DType dtype,
      OptionalDouble constantOperand)
      implements Kernel {
    @Override
    public void run(Frame frame) {
      Object dest = frame.values[out];
      if (constantOperand.isPresent()) {
        Conversions.fill(dtype, constantOperand.getAsDouble(), dest, 0, operandShape.intSize());
      } else if (dest != frame.values[operand]) {
        System.arraycopy(frame.values[operand], 0, dest, 0, operandShape.intSize());
      }
      int[] s = starts(frame, startValues, operandShape, updateShape);
      IndexKernels.window(dest, operandShape, s, frame.values[update], updateShape, false);
    }

    @Override
    public int[] reads() {
      int[] r = concat(update, startValues);
      return constantOperand.isPresent() ? r : concat(operand, r);
    }

    @Override
    public int writes() {
      return out;
    }
  }

  /**
   * {@code update_slots}: the operand (B, outer, S, inner) with update (B, outer, 1, inner) row b
   * written at index[b]; rows out of [0, S) are skipped. Copies the operand only when the plan did
   * not let it update the operand's storage in place (it dies here).
   */
  record UpdateSlots(
      int out, int operand, int update, int index, int rows, int outer, int slots, int inner)
      implements Kernel {
    @Override
    public void run(Frame frame) {
      Object dest = frame.values[out];
      if (dest != frame.values[operand]) {
        System.arraycopy(frame.values[operand], 0, dest, 0, rows * outer * slots * inner);
      }
      int[] at = (int[]) frame.values[index];
      Object src = frame.values[update];
      for (int b = 0; b < rows; b++) {
        if (at[b] < 0 || at[b] >= slots) {
          continue;
        }
        for (int o = 0; o < outer; o++) {
          int from = (b * outer + o) * inner;
          System.arraycopy(src, from, dest, ((b * outer + o) * slots + at[b]) * inner, inner);
        }
      }
    }

    @Override
    public int[] reads() {
      return new int[] {operand, update, index};
    }

    @Override
    public int writes() {
      return out;
    }
  }

  /** Row gather: table (rows, row...) by ids S into S + (row...). */
  record Gather(int out, int table, int ids, int rows, int rowSize, int count) implements Kernel {
    @Override
    public void run(Frame frame) {
      int[] id = (int[]) frame.values[ids];
      Object src = frame.values[table];
      Object dest = frame.values[out];
      for (int i = 0; i < count; i++) {
        int r = Math.max(0, Math.min(id[i], rows - 1));
        System.arraycopy(src, r * rowSize, dest, i * rowSize, rowSize);
      }
    }

    @Override
    public int[] reads() {
      return new int[] {table, ids};
    }

    @Override
    public int writes() {
      return out;
    }
  }

  /** Adds update rows into a zeroed (rows, row...) table at their ids. */
  record ScatterAdd(int out, int ids, int updates, DType dtype, int rows, int rowSize, int count)
      implements Kernel {
    ScatterAdd {
      if (!Conversions.floatArray(dtype) && dtype != DType.F64) {
        throw new IllegalArgumentException(
            "cpu device: scatter_add needs f32, bf16 or f64: " + dtype);
      }
    }

    @Override
    public void run(Frame frame) {
      int[] id = (int[]) frame.values[ids];
      Object dest = frame.values[out];
      Conversions.fill(dtype, 0, dest, 0, rows * rowSize);
      for (int i = 0; i < count; i++) {
        int r = id[i];
        if (r < 0 || r >= rows) {
          continue;
        }
        if (dtype == DType.F32) {
          float[] u = (float[]) frame.values[updates];
          float[] o = (float[]) dest;
          for (int j = 0; j < rowSize; j++) {
            o[r * rowSize + j] += u[i * rowSize + j];
          }
        } else if (dtype == DType.BF16) {
          // Each add rounds, as StableHLO's scatter with a bf16 add computation does.
          float[] u = (float[]) frame.values[updates];
          float[] o = (float[]) dest;
          for (int j = 0; j < rowSize; j++) {
            o[r * rowSize + j] = Bf16.round(o[r * rowSize + j] + u[i * rowSize + j]);
          }
        } else {
          double[] u = (double[]) frame.values[updates];
          double[] o = (double[]) dest;
          for (int j = 0; j < rowSize; j++) {
            o[r * rowSize + j] += u[i * rowSize + j];
          }
        }
      }
    }

    @Override
    public int[] reads() {
      return new int[] {ids, updates};
    }

    @Override
    public int writes() {
      return out;
    }
  }

  static int[] concat(int first, int[] rest) {
    int[] r = new int[rest.length + 1];
    r[0] = first;
    System.arraycopy(rest, 0, r, 1, rest.length);
    return r;
  }
}
