package dev.javelin.backend.cpu;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Op.UnaryKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A fused elementwise expression: steps in dependency order, the last one being the result.
 * Evaluating a block runs each step over at most {@link #BLOCK} elements held in small per-thread
 * scratch arrays that stay in L1, so no intermediate of the chain is ever written to a full-size
 * buffer.
 */
final class BlockProgram {
  /** Elements per block: 4 KiB of f32, so a dozen live scratch blocks fit in L1. */
  static final int BLOCK = 1024;

  private final Step[] steps;

  BlockProgram(List<Step> steps) {
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("a block program needs at least one step");
    }
    this.steps = steps.toArray(new Step[0]);
  }

  Step root() {
    return steps[steps.length - 1];
  }

  int size() {
    return steps.length;
  }

  /** Materialised values read by the steps. */
  int[] reads() {
    Set<Integer> values = new LinkedHashSet<>();
    for (Step s : steps) {
      if (s instanceof Step.Load l) {
        values.add(l.value());
      } else if (s instanceof Step.View v) {
        values.add(v.value());
      }
    }
    return values.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Per-thread scratch: one block per step (loaded values are copied in, so that every loop runs
   * over blocks indexed from 0, the form C2 vectorises); constant blocks filled once, here.
   */
  Scratch newScratch() {
    Scratch s = new Scratch(steps.length);
    for (int i = 0; i < steps.length; i++) {
      Step step = steps[i];
      s.blocks[i] = Conversions.allocate(step.dtype(), BLOCK);
      if (step instanceof Step.Fill f) {
        Conversions.fill(f.dtype(), f.constant(), s.blocks[i], 0, BLOCK);
      }
    }
    return s;
  }

  /**
   * Evaluates flat indices {@code [start, start + n)}, {@code n <= BLOCK}. With a non-null {@code
   * out} the result is written to {@code out[oo...]}; otherwise it is left where {@link
   * Scratch#array} / {@link Scratch#offset} of the root point.
   */
  void eval(Frame frame, Scratch s, int start, int n, Object out, int oo) {
    int last = steps.length - 1;
    if (last == 0 && steps[0] instanceof Step.Load l) {
      // A bare load (a reduction straight over a materialised value): no copy needed.
      s.arrays[0] = frame.values[l.value()];
      s.offsets[0] = start;
      if (out != null) {
        System.arraycopy(s.arrays[0], start, out, oo, n);
      }
      return;
    }
    for (int i = 0; i <= last; i++) {
      Object block = s.blocks[i];
      if (steps[i] instanceof Step.Load l) {
        System.arraycopy(frame.values[l.value()], start, block, 0, n);
      } else {
        evalStep(steps[i], frame, s, start, n, block);
        if (roundsToBf16(steps[i])) {
          Bf16.roundInPlace((float[]) block, 0, n);
        }
      }
      s.arrays[i] = block;
      s.offsets[i] = 0;
    }
    if (out != null) {
      System.arraycopy(s.blocks[last], 0, out, oo, n);
    }
  }

  /** One computed step into its block {@code o} (constant blocks are pre-filled). */
  private static void evalStep(Step step, Frame frame, Scratch s, int start, int n, Object o) {
    int oo = 0;
    if (step instanceof Step.Fill) {
      return;
    } else if (step instanceof Step.View v) {
      v.view().read(v.dtype(), frame.values[v.value()], start, n, o, oo);
    } else if (step instanceof Step.Iota io) {
      iota(io, start, n, o, oo);
    } else if (step instanceof Step.Unary u && isExp(u)) {
      boolean logistic = u.kind() == UnaryKind.LOGISTIC;
      Object a = s.arrays[u.a()];
      ExpLoops.run(logistic, (float[]) a, s.offsets[u.a()], (float[]) o, oo, n, s.exp);
    } else if (step instanceof Step.Unary u) {
      ElementLoops.unary(u.kind(), u.dtype(), s.arrays[u.a()], s.offsets[u.a()], o, oo, n);
    } else if (step instanceof Step.Binary b) {
      ElementLoops.binary(
          b.kind(),
          b.dtype(),
          s.arrays[b.a()],
          s.offsets[b.a()],
          s.arrays[b.b()],
          s.offsets[b.b()],
          o,
          oo,
          n);
    } else if (step instanceof Step.Compare c) {
      ElementLoops.compare(
          c.direction(),
          c.operandType(),
          s.arrays[c.a()],
          s.offsets[c.a()],
          s.arrays[c.b()],
          s.offsets[c.b()],
          (boolean[]) o,
          oo,
          n);
    } else if (step instanceof Step.Select sel) {
      ElementLoops.select(
          sel.dtype(),
          (boolean[]) s.arrays[sel.pred()],
          s.offsets[sel.pred()],
          s.arrays[sel.onTrue()],
          s.offsets[sel.onTrue()],
          s.arrays[sel.onFalse()],
          s.offsets[sel.onFalse()],
          o,
          oo,
          n);
    } else if (step instanceof Step.Convert c) {
      Conversions.convert(c.from(), s.arrays[c.a()], s.offsets[c.a()], c.dtype(), o, oo, n);
    }
  }

  /**
   * bf16 steps compute in f32 and round once, each step on its own, so a fused chain rounds where
   * the reference does. Loads, views and selects pass bf16 values through; fills are rounded when
   * made (and conversions from f32/f64 rounded by {@link Conversions}).
   */
  private static boolean roundsToBf16(Step step) {
    return step.dtype() == DType.BF16
        && (step instanceof Step.Unary || step instanceof Step.Binary || step instanceof Step.Iota);
  }

  private static boolean isExp(Step.Unary u) {
    return Conversions.floatArray(u.dtype())
        && (u.kind() == UnaryKind.EXP || u.kind() == UnaryKind.LOGISTIC);
  }

  private static void iota(Step.Iota io, int start, int n, Object o, int oo) {
    switch (io.dtype()) {
      case F32, BF16 -> {
        float[] a = (float[]) o;
        for (int i = 0; i < n; i++) {
          a[oo + i] = ((start + i) / io.stride()) % io.size();
        }
      }
      case F64 -> {
        double[] a = (double[]) o;
        for (int i = 0; i < n; i++) {
          a[oo + i] = ((start + i) / io.stride()) % io.size();
        }
      }
      case I32 -> {
        int[] a = (int[]) o;
        for (int i = 0; i < n; i++) {
          a[oo + i] = ((start + i) / io.stride()) % io.size();
        }
      }
      case PRED -> {
        boolean[] a = (boolean[]) o;
        for (int i = 0; i < n; i++) {
          a[oo + i] = ((start + i) / io.stride()) % io.size() != 0;
        }
      }
    }
  }

  /** Per-thread block storage and, during evaluation, where each step's block currently lies. */
  static final class Scratch {
    final Object[] blocks;
    final Object[] arrays;
    final int[] offsets;
    final float[][] exp = ExpLoops.newScratch();

    Scratch(int steps) {
      blocks = new Object[steps];
      arrays = new Object[steps];
      offsets = new int[steps];
    }

    /**
     * Forgets the run's arrays once a kernel is done: a loaded step points straight into a frame
     * array, and a stale pointer kept every planned array of the last run reachable after it ended
     * (~0.5 GB between steps of a small train step), defeating the pool's bound.
     */
    static void release(Scratch[] scratch) {
      for (Scratch s : scratch) {
        java.util.Arrays.fill(s.arrays, null);
      }
    }
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (Step s : steps) {
      parts.add(s.toString());
    }
    return "BlockProgram" + parts;
  }
}
