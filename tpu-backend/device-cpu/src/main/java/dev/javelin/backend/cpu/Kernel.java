package dev.javelin.backend.cpu;

/**
 * One step of a compiled plan: reads materialised values from the frame and writes the value it
 * owns. Kernels keep their scratch between runs, so a run allocates nothing but its outputs.
 */
interface Kernel {

  void run(Frame frame);

  /** Value positions this kernel reads, for the buffer plan's liveness analysis. */
  int[] reads();

  /** The value position this kernel writes. */
  int writes();

  /** The row this kernel's time is added to in a {@link KernelProfile}: its kind by default. */
  default String profileKey() {
    return getClass().getSimpleName();
  }
}
