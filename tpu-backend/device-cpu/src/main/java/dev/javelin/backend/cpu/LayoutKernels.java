package dev.javelin.backend.cpu;

/** Kernels that move whole arrays: concatenation, copies and reshape aliases. */
final class LayoutKernels {
  private LayoutKernels() {}

  /** Concatenation along one axis: each part is (outer, partRun) copied into (outer, totalRun). */
  record Concatenate(int out, int[] parts, int[] partRuns, int outer) implements Kernel {
    @Override
    public void run(Frame frame) {
      int total = 0;
      for (int r : partRuns) {
        total += r;
      }
      Object dest = frame.values[out];
      int at = 0;
      for (int p = 0; p < parts.length; p++) {
        Object src = frame.values[parts[p]];
        int run = partRuns[p];
        for (int o = 0; o < outer; o++) {
          System.arraycopy(src, o * run, dest, o * total + at, run);
        }
        at += run;
      }
    }

    @Override
    public int[] reads() {
      return parts.clone();
    }

    @Override
    public int writes() {
      return out;
    }
  }

  /** A kernel that reads one value, {@code source}, and writes {@code out}. */
  private interface OneSource extends Kernel {
    int out();

    int source();

    @Override
    default int[] reads() {
      return new int[] {source()};
    }

    @Override
    default int writes() {
      return out();
    }
  }

  /** A whole-array copy: a reshape or parameter that is also an output needs its own array. */
  record Copy(int out, int source, int size) implements OneSource {
    @Override
    public void run(Frame frame) {
      System.arraycopy(frame.values[source], 0, frame.values[out], 0, size);
    }
  }

  /** A reshape of a materialised value shares its array: row-major order is unchanged. */
  record Alias(int out, int source) implements OneSource {
    @Override
    public void run(Frame frame) {
      frame.values[out] = frame.values[source];
    }
  }
}
