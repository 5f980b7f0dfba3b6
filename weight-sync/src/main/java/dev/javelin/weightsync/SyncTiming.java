package dev.javelin.weightsync;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How long one weight update took and how much it moved, reported under VeRL-style metric names.
 *
 * @param seconds wall time from publish to the last sampler having loaded the weights
 * @param bytes payload bytes moved per sampler
 * @param receivers number of samplers that loaded the snapshot
 */
public record SyncTiming(double seconds, long bytes, int receivers) {
  public SyncTiming {
    if (seconds < 0 || bytes < 0 || receivers < 0) {
      throw new IllegalArgumentException("negative timing " + seconds + "s/" + bytes + "B");
    }
  }

  /** Effective throughput: bytes delivered to all receivers per second, in GB/s (1e9). */
  public double gigabytesPerSecond() {
    return seconds == 0 ? 0 : (double) bytes * Math.max(receivers, 1) / seconds / 1e9;
  }

  public Map<String, Double> metrics() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("timing_s/update_weights", seconds);
    m.put("weight_sync/bytes", (double) bytes);
    m.put("weight_sync/gbps", gigabytesPerSecond());
    return m;
  }
}
