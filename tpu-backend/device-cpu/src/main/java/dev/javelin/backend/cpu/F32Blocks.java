package dev.javelin.backend.cpu;

import dev.javelin.backend.graph.Op.BinaryKind;
import dev.javelin.backend.graph.Op.UnaryKind;

/**
 * f32 elementwise loops over whole scratch blocks, every array indexed from 0. JDK 17's C2 does not
 * vectorise a loop whose arrays are read at run-time offsets ({@code o[oo + i] = a[ao + i] * b[bo +
 * i]}: it cannot rule out an overlap), but does vectorise the same loop indexed as {@code o[i] =
 * a[i] * b[i]}, 4-5x faster. {@link BlockProgram} therefore evaluates every step into blocks that
 * start at 0, and {@link ElementLoops} routes such calls here.
 */
final class F32Blocks {
  private F32Blocks() {}

  static void unary(UnaryKind kind, float[] a, float[] o, int n) {
    switch (kind) {
      case NEG -> {
        for (int i = 0; i < n; i++) {
          o[i] = -a[i];
        }
      }
      case ABS -> {
        for (int i = 0; i < n; i++) {
          o[i] = Math.abs(a[i]);
        }
      }
      case SQRT -> {
        for (int i = 0; i < n; i++) {
          o[i] = (float) Math.sqrt(a[i]);
        }
      }
      case RSQRT -> {
        for (int i = 0; i < n; i++) {
          o[i] = (float) (1.0 / Math.sqrt(a[i]));
        }
      }
      case EXP -> ExpLoops.exp(a, 0, o, 0, n);
      case LOGISTIC -> ExpLoops.logistic(a, 0, o, 0, n);
      case LOG -> {
        for (int i = 0; i < n; i++) {
          o[i] = (float) Math.log(a[i]);
        }
      }
      case TANH -> {
        for (int i = 0; i < n; i++) {
          o[i] = (float) Math.tanh(a[i]);
        }
      }
    }
  }

  static void binary(BinaryKind kind, float[] a, float[] b, float[] o, int n) {
    switch (kind) {
      case ADD -> {
        for (int i = 0; i < n; i++) {
          o[i] = a[i] + b[i];
        }
      }
      case SUB -> {
        for (int i = 0; i < n; i++) {
          o[i] = a[i] - b[i];
        }
      }
      case MUL -> {
        for (int i = 0; i < n; i++) {
          o[i] = a[i] * b[i];
        }
      }
      case DIV -> {
        for (int i = 0; i < n; i++) {
          o[i] = a[i] / b[i];
        }
      }
      case MAX -> {
        for (int i = 0; i < n; i++) {
          o[i] = Math.max(a[i], b[i]);
        }
      }
      case MIN -> {
        for (int i = 0; i < n; i++) {
          o[i] = Math.min(a[i], b[i]);
        }
      }
      case POW -> {
        for (int i = 0; i < n; i++) {
          o[i] = (float) Math.pow(a[i], b[i]);
        }
      }
    }
  }
}
