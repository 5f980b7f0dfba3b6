package dev.javelin.backend.cpu;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Opt-in per-kernel wall and CPU time across the whole JVM, for profiling a real workload (a GRPO
 * run) without touching its code: {@code -Djavelin.cpu.trace=/tmp/kernels.txt} times every kernel
 * of every cpu executable and writes a table, costliest (by CPU) first, when the JVM exits. Off
 * (one static null check per run) unless the property is set.
 */
final class KernelTrace {
  private static final Logger LOG = Logger.getLogger(KernelTrace.class.getName());
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final KernelTrace INSTANCE = create(System.getProperty("javelin.cpu.trace"));

  private final Map<String, long[]> rows = new ConcurrentHashMap<>();
  private final LongAdder total = new LongAdder();

  private KernelTrace() {}

  /** The JVM-wide trace, or null when tracing is off. */
  static KernelTrace get() {
    return INSTANCE;
  }

  private static KernelTrace create(String file) {
    if (file == null || file.isBlank()) {
      return null;
    }
    KernelTrace t = new KernelTrace();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> t.write(Path.of(file)), "kernel-trace"));
    return t;
  }

  /** CPU time of the calling thread; with one worker it is the kernel's cost, however busy. */
  static long threadCpuNanos() {
    return THREADS.getCurrentThreadCpuTime();
  }

  /**
   * Adds one run of the kernel described by {@code key} (program name + kernel): wall and
   * calling-thread CPU nanoseconds.
   */
  void add(String key, long nanos, long cpuNanos) {
    long[] r = rows.computeIfAbsent(key, k -> new long[3]);
    synchronized (r) {
      r[0] += nanos;
      r[1]++;
      r[2] += cpuNanos;
    }
    total.add(nanos);
  }

  private void write(Path file) {
    List<Map.Entry<String, long[]>> sorted = new ArrayList<>(rows.entrySet());
    sorted.sort((x, y) -> Long.compare(y.getValue()[2], x.getValue()[2]));
    double all = Math.max(1, total.sum());
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
      w.printf("total kernel wall time %.1f ms%n", all / 1e6);
      w.println("ms_total\tshare\truns\tus_per_run\tcaller_cpu_us_per_run\tkernel");
      for (Map.Entry<String, long[]> e : sorted) {
        long[] r = e.getValue();
        w.printf(
            "%.1f\t%.2f%%\t%d\t%.1f\t%.1f\t%s%n",
            r[0] / 1e6, 100 * r[0] / all, r[1], r[0] / 1e3 / r[1], r[2] / 1e3 / r[1], e.getKey());
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot write the kernel trace to " + file, e);
    }
  }
}
