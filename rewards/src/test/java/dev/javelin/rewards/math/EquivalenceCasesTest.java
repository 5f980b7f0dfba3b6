package dev.javelin.rewards.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hand-written equivalence cases in {@code rewards/equivalence_cases.tsv}. */
class EquivalenceCasesTest {

  record Case(int line, String pred, String gold, boolean expected, String reason) {}

  static List<Case> load() throws IOException {
    List<Case> cases = new ArrayList<>();
    try (InputStream in =
        EquivalenceCasesTest.class.getResourceAsStream("/rewards/equivalence_cases.tsv")) {
      assertTrue(in != null, "missing test resource rewards/equivalence_cases.tsv");
      String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i];
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t", -1);
        assertEquals(4, f.length, "line " + (i + 1) + " needs 4 tab-separated fields: " + line);
        assertTrue(
            f[2].equals("true") || f[2].equals("false"),
            "line " + (i + 1) + ": expected true|false");
        cases.add(new Case(i + 1, f[0], f[1], Boolean.parseBoolean(f[2]), f[3]));
      }
    }
    return cases;
  }

  @Test
  void atLeastTwoHundredCasesWithBothOutcomes() throws IOException {
    List<Case> cases = load();
    assertTrue(cases.size() >= 200, "only " + cases.size() + " cases");
    assertTrue(cases.stream().filter(Case::expected).count() >= 50, "too few true cases");
    assertTrue(cases.stream().filter(c -> !c.expected()).count() >= 50, "too few false cases");
  }

  @Test
  void everyCaseHolds() throws IOException {
    List<String> failures = new ArrayList<>();
    for (Case c : load()) {
      if (MathEquivalence.equivalent(c.pred(), c.gold()) != c.expected()) {
        failures.add(
            "line "
                + c.line()
                + ": "
                + c.pred()
                + " vs "
                + c.gold()
                + " should be "
                + c.expected()
                + " ("
                + c.reason()
                + ")");
      }
    }
    assertTrue(
        failures.isEmpty(), failures.size() + " failing cases:\n" + String.join("\n", failures));
  }

  @Test
  void equivalenceIsSymmetricOnTheCases() throws IOException {
    List<String> failures = new ArrayList<>();
    for (Case c : load()) {
      if (MathEquivalence.equivalent(c.gold(), c.pred()) != c.expected()) {
        failures.add("line " + c.line() + " reversed: " + c.gold() + " vs " + c.pred());
      }
    }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }
}
