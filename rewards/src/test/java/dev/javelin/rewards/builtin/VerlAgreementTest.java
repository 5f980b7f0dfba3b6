package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.math.NumberLiteral;
import dev.javelin.rewards.math.Rational;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Agreement with VeRL's own reward code on {@code verl_reference.jsonl} (written by
 * tools/rewards_verl_fixtures.py from the shared datasets). Javelin must accept everything VeRL
 * accepts; where it accepts more, the reason must be one it documents (an equal number written
 * differently, a mathematically equal answer). math_dapo without equivalence must match exactly.
 */
class VerlAgreementTest {

  private static final List<JsonNode> CASES = new ArrayList<>();

  @BeforeAll
  static void load() throws IOException {
    ObjectMapper json = new ObjectMapper();
    try (InputStream in =
        VerlAgreementTest.class.getResourceAsStream("/rewards/verl_reference.jsonl")) {
      assertTrue(
          in != null, "missing rewards/verl_reference.jsonl; run tools/rewards_verl_fixtures.py");
      String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1);
      for (int i = 1; i < lines.length; i++) { // line 0 is the header
        if (!lines[i].isBlank()) {
          CASES.add(json.readTree(lines[i]));
        }
      }
    }
    assertTrue(CASES.size() > 1000, "too few reference cases: " + CASES.size());
  }

  private static RewardResult run(RewardFunction f, JsonNode c) {
    return f.score(RewardInput.of("x", c.get("response").asText(), c.get("ground_truth").asText()));
  }

  @Test
  void gsm8kAcceptsAllVerlAcceptsAndOnlyEqualNumbersBeyond() {
    for (Gsm8kReward.Method m : Gsm8kReward.Method.values()) {
      Gsm8kReward ours = new Gsm8kReward(new Gsm8kReward.Params(m, 0.0, 1.0));
      String key = m == Gsm8kReward.Method.STRICT ? "verl_strict" : "verl_flexible";
      List<String> bad = new ArrayList<>();
      int extra = 0;
      for (JsonNode c : CASES) {
        if (!c.get("fn").asText().equals("gsm8k")) {
          continue;
        }
        RewardResult r = run(ours, c);
        double verl = c.get(key).asDouble();
        String pred = String.valueOf(r.extras().get("pred"));
        Rational p = NumberLiteral.parse(pred);
        boolean explained =
            p != null && p.equals(NumberLiteral.parse(c.get("ground_truth").asText()));
        if ((verl == 1.0 && r.score() != 1.0) || (r.score() == 1.0 && verl != 1.0 && !explained)) {
          bad.add(c.get("response").asText() + " | gt " + c.get("ground_truth").asText());
        } else if (r.score() == 1.0 && verl != 1.0) {
          extra++;
        }
      }
      assertTrue(bad.isEmpty(), m + " disagreements: " + bad.subList(0, Math.min(10, bad.size())));
      System.out.println("gsm8k " + m + ": accepted beyond VeRL (equal numbers): " + extra);
    }
  }

  @Test
  void mathAcceptsEverythingVerlAccepts() {
    MathReward ours = new MathReward(1.0, 0.0);
    List<String> missed = new ArrayList<>();
    int both = 0;
    int gained = 0;
    for (JsonNode c : CASES) {
      if (!c.get("fn").asText().equals("math")) {
        continue;
      }
      double s = run(ours, c).score();
      double verl = c.get("verl_score").asDouble();
      if (verl == 1.0 && s != 1.0) {
        missed.add(c.get("response").asText() + " | gt " + c.get("ground_truth").asText());
      }
      both += verl == 1.0 && s == 1.0 ? 1 : 0;
      gained += verl != 1.0 && s == 1.0 ? 1 : 0;
    }
    assertTrue(
        missed.isEmpty(),
        missed.size() + " missed: " + missed.subList(0, Math.min(10, missed.size())));
    System.out.println("math: both accept " + both + ", Javelin only " + gained);
  }

  @Test
  void mathDapoMatchesVerlExactlyWithoutEquivalence() {
    MathDapoReward verlOnly = new MathDapoReward(false, false);
    MathDapoReward ours = new MathDapoReward(false, true);
    List<String> diff = new ArrayList<>();
    for (JsonNode c : CASES) {
      if (!c.get("fn").asText().equals("math_dapo")) {
        continue;
      }
      double verl = c.get("verl_score").asDouble();
      if (run(verlOnly, c).score() != verl) {
        diff.add(c.get("response").asText() + " | gt " + c.get("ground_truth").asText());
      }
      if (verl == 1.0) {
        assertEquals(1.0, run(ours, c).score(), c.toString());
      }
    }
    assertTrue(
        diff.isEmpty(), diff.size() + " differ: " + diff.subList(0, Math.min(10, diff.size())));
  }
}
