package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.math.AnswerExtractor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Agreement with the labelled sets in {@code rewards/agreement/} (provenance in their README): the
 * figures docs/REWARDS.md publishes, as floors. Neither mode may accept an answer labelled wrong.
 */
class AgreementSetsTest {

  /** Agreement counts of one reward on one set. */
  record Tally(int rows, int agree, int falsePositives, int falseNegatives) {}

  static List<JsonNode> load(String name) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> rows = new ArrayList<>();
    try (InputStream in =
        AgreementSetsTest.class.getResourceAsStream("/rewards/agreement/" + name)) {
      assertTrue(in != null, "missing test resource rewards/agreement/" + name);
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
        if (!line.isBlank()) {
          rows.add(json.readTree(line));
        }
      }
    }
    return rows;
  }

  static Tally tally(List<JsonNode> rows, AnswerExtractor.Mode mode) {
    MathReward math = new MathReward(1.0, 0.0, mode);
    int agree = 0;
    int fp = 0;
    int fn = 0;
    for (JsonNode r : rows) {
      boolean label = r.get("label").asBoolean();
      boolean ok =
          math.score(
                      RewardInput.of(
                          "math", r.get("response").asText(), r.get("ground_truth").asText()))
                  .score()
              > 0;
      agree += ok == label ? 1 : 0;
      fp += ok && !label ? 1 : 0;
      fn += !ok && label ? 1 : 0;
    }
    System.out.println(mode + ": " + agree + "/" + rows.size() + " fp " + fp + " fn " + fn);
    return new Tally(rows.size(), agree, fp, fn);
  }

  @Test
  void issueShapedSet() throws IOException {
    List<JsonNode> rows = load("issue_shapes.jsonl");
    assertEquals(51, rows.size());
    Tally lenient = tally(rows, AnswerExtractor.Mode.MATH_VERIFY);
    assertEquals(51, lenient.agree(), lenient.toString());
    Tally verl = tally(rows, AnswerExtractor.Mode.VERL);
    assertEquals(0, verl.falsePositives(), verl.toString());
    assertTrue(verl.agree() >= 45, verl.toString()); // misses only the answers without a box
  }

  @Test
  void math500FormsSet() throws IOException {
    List<JsonNode> rows = load("math500_forms.jsonl");
    assertEquals(500, rows.size());
    Tally lenient = tally(rows, AnswerExtractor.Mode.MATH_VERIFY);
    assertEquals(0, lenient.falsePositives(), lenient.toString());
    assertTrue(lenient.agree() >= 480, lenient.toString());
    Tally verl = tally(rows, AnswerExtractor.Mode.VERL);
    assertEquals(0, verl.falsePositives(), verl.toString());
    assertTrue(verl.agree() >= 300, verl.toString());
  }
}
