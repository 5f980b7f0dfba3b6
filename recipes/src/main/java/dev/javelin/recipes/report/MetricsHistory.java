package dev.javelin.recipes.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.metrics.BoundedMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A run's metrics.jsonl as step → metrics. The last record of a step wins, so a resumed run (which
 * re-logs the steps after its checkpoint) gives one curve; a line that does not parse (the half
 * written last line of a running run) is skipped.
 */
public record MetricsHistory(NavigableMap<Long, Map<String, Double>> steps) {
  /** Longest line read; a longer one is skipped rather than parsed. */
  static final int MAX_LINE_CHARS = 1 << 20;

  private static final ObjectMapper JSON = BoundedMapper.of(4, MAX_LINE_CHARS);

  /** Reads {@code file}; a missing file is an empty history. */
  public static MetricsHistory read(Path file) throws IOException {
    NavigableMap<Long, Map<String, Double>> steps = new TreeMap<>();
    if (!Files.isRegularFile(file)) {
      return new MetricsHistory(steps);
    }
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.isBlank() || line.length() > MAX_LINE_CHARS) {
          continue;
        }
        JsonNode n;
        try {
          n = JSON.readTree(line);
        } catch (IOException e) {
          continue;
        }
        if (n == null || !n.isObject() || !n.path("step").canConvertToLong()) {
          continue;
        }
        Map<String, Double> m = new LinkedHashMap<>();
        n.properties()
            .forEach(
                f -> {
                  if (!f.getKey().equals("step") && f.getValue().isNumber()) {
                    m.put(f.getKey(), f.getValue().asDouble());
                  }
                });
        steps.put(n.path("step").asLong(), m);
      }
    }
    return new MetricsHistory(steps);
  }

  /** Every metric name, sorted. */
  public TreeSet<String> names() {
    TreeSet<String> names = new TreeSet<>();
    steps.values().forEach(m -> names.addAll(m.keySet()));
    return names;
  }

  /** The steps where {@code name} was logged, with its value. */
  public NavigableMap<Long, Double> series(String name) {
    NavigableMap<Long, Double> s = new TreeMap<>();
    steps.forEach(
        (step, m) -> {
          Double v = m.get(name);
          if (v != null && Double.isFinite(v)) {
            s.put(step, v);
          }
        });
    return s;
  }
}
