package dev.javelin.backend.xla;

/**
 * A TPU generation's per-chip figures that {@code javelin plan} compares programs against: HBM
 * capacity, peak dense bf16 throughput and HBM bandwidth, as Google publishes them (Cloud TPU
 * documentation, "TPU v4", "TPU v5e", "TPU v5p", "TPU v6e" system architecture pages; see
 * docs/TPU.md).
 *
 * @param generation the name used in topology names ({@code v5e})
 * @param hbmBytes HBM per chip
 * @param peakFlops peak bf16 floating-point operations per second per chip
 * @param hbmBytesPerSecond HBM bandwidth per chip
 * @param coresPerChip TensorCores per chip: v4 and v5p slice names count cores, v5e and v6e chips
 */
public record TpuChip(
    String generation,
    long hbmBytes,
    double peakFlops,
    double hbmBytesPerSecond,
    int coresPerChip) {
  private static final long GIB = 1L << 30;

  public static final TpuChip V4 = new TpuChip("v4", 32 * GIB, 275e12, 1228e9, 2);
  public static final TpuChip V5E = new TpuChip("v5e", 16 * GIB, 197e12, 819e9, 1);
  public static final TpuChip V5P = new TpuChip("v5p", 95 * GIB, 459e12, 2765e9, 2);
  public static final TpuChip V6E = new TpuChip("v6e", 32 * GIB, 918e12, 1640e9, 1);

  /** The chip of a generation name, or null. */
  static TpuChip of(String generation) {
    return switch (generation) {
      case "v4" -> V4;
      case "v5e", "v5litepod" -> V5E;
      case "v5p" -> V5P;
      case "v6e" -> V6E;
      default -> null;
    };
  }

  /**
   * The roofline lower bound on one step's time in seconds: the larger of the time to do {@code
   * flops} at peak and the time to move {@code bytes} at HBM bandwidth.
   */
  public double rooflineSeconds(double flops, double bytes) {
    return Math.max(flops / peakFlops, bytes / hbmBytesPerSecond);
  }
}
