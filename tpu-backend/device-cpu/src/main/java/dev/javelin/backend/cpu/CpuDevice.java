package dev.javelin.backend.cpu;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Barriers;
import dev.javelin.backend.graph.Program;
import java.util.Map;

/**
 * The fast host device, spec {@code cpu}: OpenBLAS for matrix products, fused block loops for
 * elementwise chains and reductions, a fixed worker pool, and planned buffers reused across runs.
 * The worker count is {@code -Djavelin.cpu.threads=N}, by default every available processor.
 */
public final class CpuDevice implements Device {
  /**
   * Arrays of closed buffers kept for reuse as outputs, at most this many bytes per device ({@code
   * -Djavelin.cpu.pool_bytes}); by default min(256 MiB, max heap / 16), since one JVM in Ray local
   * mode holds a device per trainer and per sampler.
   */
  private static final long POOL_BYTES =
      Long.getLong(
          "javelin.cpu.pool_bytes", Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 16));

  private final Parallel parallel;
  private final ArrayPool pool = new ArrayPool(POOL_BYTES);
  private final KernelProfile profile = new KernelProfile();

  /**
   * A device with {@code threads} workers. Loads OpenBLAS and pins it to one thread first: left at
   * its default it would run its own thread pool inside every worker's products.
   */
  public CpuDevice(int threads) {
    Blas.load()
        .ifPresent(
            reason -> {
              throw new IllegalStateException("cannot open cpu device: " + reason);
            });
    this.parallel = new Parallel(threads);
  }

  /** A device with the configured (or all available) worker threads. */
  public static CpuDevice withDefaultThreads() {
    int dflt = Runtime.getRuntime().availableProcessors();
    return new CpuDevice(Integer.getInteger("javelin.cpu.threads", dflt));
  }

  @Override
  public String name() {
    return "cpu";
  }

  public int threads() {
    return parallel.threads();
  }

  @Override
  public Executable compile(Program program) {
    return new CpuExecutable(Barriers.strip(program), Donation.none(), parallel, pool, profile);
  }

  /**
   * Honours a donation where the output is an in-place update of its donated argument (a slot or
   * dynamic-update-slice write whose operand dies there): the run writes into the argument's array
   * and consumes the argument. Other donations are ignored (the argument stays intact).
   */
  @Override
  public Executable compile(Program program, Donation donation) {
    Program p = Barriers.strip(program);
    return new CpuExecutable(p, donation.validate(p), parallel, pool, profile);
  }

  @Override
  public DeviceBuffer upload(Tensor tensor) {
    return CpuBuffer.copyOf(tensor, pool);
  }

  /** Starts or stops timing every kernel run (off by default; costs two clock reads a kernel). */
  public void setProfiling(boolean on) {
    profile.setEnabled(on);
  }

  /** Wall nanoseconds per kernel kind (e.g. {@code GemmKernel}) since the last reset. */
  public Map<String, Long> profile() {
    return profile.snapshot();
  }

  public void resetProfile() {
    profile.reset();
  }

  /**
   * A readable listing of how {@code program} compiles: the kernels, what fused, how each matrix
   * operand is read.
   */
  public String explain(Program program) {
    CpuExecutable e =
        new CpuExecutable(Barriers.strip(program), Donation.none(), parallel, pool, profile);
    try {
      return e.describe();
    } finally {
      e.close();
    }
  }

  @Override
  public void close() {
    parallel.close();
  }
}
