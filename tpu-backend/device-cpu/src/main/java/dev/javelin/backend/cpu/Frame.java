package dev.javelin.backend.cpu;

/**
 * The storage of one run: the array holding each materialised value, indexed by the value's
 * position in the program, and the argument buffers (for their off-heap mirrors).
 */
final class Frame {
  final Object[] values;
  final CpuBuffer[] arguments;

  Frame(int valueCount) {
    this.values = new Object[valueCount];
    this.arguments = new CpuBuffer[valueCount];
  }
}
