package dev.javelin.backend.cpu;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Wall time per kernel kind (Gemm by path and shape, Fused, Reduce, ...), collected only while
 * enabled, so that a benchmark can report the share of a train step spent in matrix products.
 */
final class KernelProfile {
  private final Map<String, LongAdder> nanos = new ConcurrentHashMap<>();
  private volatile boolean enabled;

  boolean enabled() {
    return enabled;
  }

  void setEnabled(boolean on) {
    enabled = on;
  }

  void add(Kernel k, long ns) {
    nanos.computeIfAbsent(k.profileKey(), x -> new LongAdder()).add(ns);
  }

  /** Nanoseconds per kernel kind since the last reset, sorted by name. */
  Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    nanos.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  void reset() {
    nanos.clear();
  }
}
