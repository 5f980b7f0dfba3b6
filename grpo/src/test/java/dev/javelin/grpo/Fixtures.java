package dev.javelin.grpo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads grpo/reference.json, written by tools/grpo_reference.py, and compares numbers. */
final class Fixtures {
  private static final JsonNode ROOT = load();

  private Fixtures() {}

  private static JsonNode load() {
    try (InputStream in = Fixtures.class.getResourceAsStream("/grpo/reference.json")) {
      if (in == null) {
        throw new IllegalStateException(
            "grpo/reference.json missing; run .venv/bin/python tools/grpo_reference.py");
      }
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One random batch of the fixture file. */
  record Case(String name, boolean f32, JsonNode inputs, JsonNode expected) {
    int rows() {
      return inputs.get("rows").asInt();
    }

    int cols() {
      return inputs.get("cols").asInt();
    }

    double[] in(String field) {
      return doubles(inputs.get(field));
    }

    boolean[] mask() {
      return booleans(inputs.get("mask"));
    }

    String[] uids() {
      List<String> out = new ArrayList<>();
      inputs.get("uids").forEach(n -> out.add(n.asText()));
      return out.toArray(new String[0]);
    }

    /** Relative tolerance: 1e-6 for float64 fixtures, 1e-5 for float32 ones. */
    double tol() {
      return f32 ? 1e-5 : 1e-6;
    }

    PolicyBatch batch(double[] advantages) {
      return PolicyBatch.of(rows(), cols(), in("log_prob"), in("old_log_prob"), advantages, mask());
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() {
    List<Case> out = new ArrayList<>();
    ROOT.get("cases")
        .forEach(
            c ->
                out.add(
                    new Case(
                        c.get("name").asText(),
                        "float32".equals(c.get("dtype").asText()),
                        c.get("inputs"),
                        c.get("expected"))));
    return out;
  }

  static JsonNode misc() {
    return ROOT.get("misc");
  }

  static double[] doubles(JsonNode array) {
    double[] out = new double[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asDouble();
    }
    return out;
  }

  static boolean[] booleans(JsonNode array) {
    boolean[] out = new boolean[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asDouble() != 0.0;
    }
    return out;
  }

  static void assertClose(double expected, double actual, double tol, String what) {
    if (!(Math.abs(expected - actual) <= tol * Math.max(1.0, Math.abs(expected)))) {
      fail(what + ": expected " + expected + " but was " + actual + " (tol " + tol + ")");
    }
  }

  static void assertClose(double[] expected, double[] actual, double tol, String what) {
    assertEquals(expected.length, actual.length, what + ": length");
    for (int i = 0; i < expected.length; i++) {
      assertClose(expected[i], actual[i], tol, what + "[" + i + "]");
    }
  }

  /** Every metric of the fixture must be present in {@code actual} and match. */
  static void assertMetrics(
      JsonNode expected, Map<String, Double> actual, double tol, String what) {
    expected
        .properties()
        .forEach(
            e -> {
              Double v = actual.get(e.getKey());
              if (v == null) {
                fail(what + ": metric " + e.getKey() + " missing from " + actual.keySet());
              }
              assertClose(e.getValue().asDouble(), v, tol, what + " " + e.getKey());
            });
  }
}
