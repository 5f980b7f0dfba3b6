package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.SharedData;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The acceptance criteria on the real GSM8K and MATH-500 test sets. */
class DatasetAcceptanceTest {

  private final RewardRegistry registry = RewardRegistry.load();

  @Test
  void gsm8kScoresEveryReferenceSolutionOneAndAWrongNumberZero() throws IOException {
    RewardFunction gsm8k = registry.create("gsm8k", Map.of());
    List<JsonNode> rows = SharedData.jsonl("gsm8k/test.jsonl");
    assertEquals(1319, rows.size(), "gsm8k/test.jsonl rows");
    List<String> failures = new ArrayList<>();
    for (JsonNode row : rows) {
      String solution = row.get("answer").asText();
      String gold = Gsm8kReward.goldAnswer(solution);
      String wrong =
          new BigInteger(gold.replace(".", "").replace("-", "")).add(BigInteger.ONE).toString();
      double right = gsm8k.score(RewardInput.of("openai/gsm8k", solution, gold)).score();
      double bad =
          gsm8k.score(RewardInput.of("openai/gsm8k", "So it is\n#### " + wrong, gold)).score();
      if (right != 1.0 || bad != 0.0) {
        failures.add(gold + " right=" + right + " wrong(" + wrong + ")=" + bad);
      }
    }
    assertTrue(
        failures.isEmpty(),
        failures.size() + " failures, e.g. " + failures.subList(0, Math.min(5, failures.size())));
  }

  @Test
  void mathScoresBoxedAnswerAndAlmostEveryFullSolutionOne() throws IOException {
    RewardFunction math = registry.create("math", Map.of());
    List<JsonNode> rows = SharedData.jsonl("math500/test.jsonl");
    assertEquals(500, rows.size(), "math500/test.jsonl rows");
    List<String> boxedFailures = new ArrayList<>();
    List<String> solutionFailures = new ArrayList<>();
    for (JsonNode row : rows) {
      String answer = row.get("answer").asText();
      String boxed = "The final answer is $\\boxed{" + answer + "}$.";
      if (math.score(RewardInput.of("math500", boxed, answer)).score() != 1.0) {
        boxedFailures.add(answer);
      }
      String solution = row.get("solution").asText();
      if (math.score(RewardInput.of("math500", solution, answer)).score() != 1.0) {
        solutionFailures.add(row.get("unique_id").asText() + ": " + answer);
      }
    }
    assertTrue(boxedFailures.isEmpty(), "boxed answer not accepted: " + boxedFailures);
    assertTrue(
        solutionFailures.size() <= 5,
        "full solution accepted for fewer than 99% of rows; failures: " + solutionFailures);
    System.out.println("MATH-500 full-solution failures: " + solutionFailures);
  }
}
