package dev.javelin.backend.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Samples used heap every few milliseconds on a daemon thread, to show whether decode is flat. */
final class HeapSampler {
  record Stats(long startMb, long peakMb, long endMb) {}

  private final MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
  private final long start;
  private volatile long peak;
  private volatile boolean running = true;
  private final Thread thread;

  private HeapSampler() {
    System.gc();
    start = used();
    peak = start;
    thread =
        new Thread(
            () -> {
              while (running) {
                peak = Math.max(peak, used());
                try {
                  Thread.sleep(5);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
              }
            },
            "heap-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  static HeapSampler start() {
    return new HeapSampler();
  }

  Stats stop() {
    running = false;
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    System.gc();
    return new Stats(start >> 20, peak >> 20, used() >> 20);
  }

  private long used() {
    return mem.getHeapMemoryUsage().getUsed();
  }
}
