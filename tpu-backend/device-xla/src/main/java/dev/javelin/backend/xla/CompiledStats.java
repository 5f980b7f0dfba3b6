package dev.javelin.backend.xla;

import java.util.Map;

/**
 * What XLA reports about one compiled program, per chip: its memory statistics ({@code
 * CompiledMemoryStats}) and cost analysis. Memory figures are bytes one chip holds while the
 * program runs; with SPMD partitioning every chip runs the same partition program.
 *
 * @param argumentBytes parameters
 * @param outputBytes results
 * @param aliasBytes results that reuse a donated parameter's memory
 * @param tempBytes temporaries (activations, workspace) at the program's peak
 * @param generatedCodeBytes the program's code
 * @param flops floating-point operations of one run (XLA's cost analysis, per chip)
 * @param bytesAccessed bytes read and written in HBM by one run (per chip)
 * @param compileSeconds wall time of the compile
 */
public record CompiledStats(
    long argumentBytes,
    long outputBytes,
    long aliasBytes,
    long tempBytes,
    long generatedCodeBytes,
    double flops,
    double bytesAccessed,
    double compileSeconds) {

  /** From the shim's {generated code, argument, output, alias, temp} and its cost lines. */
  static CompiledStats of(long[] memory, Map<String, Double> cost, double compileSeconds) {
    return new CompiledStats(
        memory[1],
        memory[2],
        memory[3],
        memory[4],
        memory[0],
        cost.getOrDefault("flops", 0.0),
        cost.getOrDefault("bytes accessed", 0.0),
        compileSeconds);
  }

  /**
   * Bytes a chip needs at the peak: arguments, results not written over a donated argument, and
   * temporaries (XLA's own estimate adds them the same way), plus the code.
   */
  public long totalBytes() {
    return argumentBytes + outputBytes - aliasBytes + tempBytes + generatedCodeBytes;
  }
}
