package dev.javelin.backend.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/** Samples used heap every few milliseconds on a daemon thread, to show whether decode is flat. */
final class HeapSampler {
  /**
   * @param livePeakMb the largest heap left right after a collection while sampling (the live set,
   *     without the garbage that {@code peakMb} may include)
   */
  record Stats(long startMb, long peakMb, long endMb, long livePeakMb) {}

  private final MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
  private final long start;
  private volatile long peak;
  private volatile long livePeak;
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
                livePeak = Math.max(livePeak, afterGc());
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
    return new Stats(start >> 20, peak >> 20, used() >> 20, livePeak >> 20);
  }

  /** Heap in use after the last collection, summed over the heap's pools. */
  private static long afterGc() {
    long n = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      MemoryUsage u = p.getType() == MemoryType.HEAP ? p.getCollectionUsage() : null;
      n += u == null ? 0 : u.getUsed();
    }
    return n;
  }

  private long used() {
    return mem.getHeapMemoryUsage().getUsed();
  }
}
