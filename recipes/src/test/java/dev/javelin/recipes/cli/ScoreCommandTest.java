package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code javelin score}: a score per row, agreement with labels and a confusion table; the reward's
 * kwargs change the verdict; bad input is one line and exit code 2.
 */
class ScoreCommandTest {
  @TempDir Path tmp;

  private record Result(int code, String out, String err) {}

  private static Result score(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] all = new String[args.length + 1];
    all[0] = "score";
    System.arraycopy(args, 0, all, 1, args.length);
    int code =
        Main.run(
            all,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Path file(String... lines) throws IOException {
    Path p = tmp.resolve("rows.jsonl");
    Files.write(p, List.of(lines), StandardCharsets.UTF_8);
    return p;
  }

  @Test
  void scoresEachRowAndComparesWithLabels() throws IOException {
    Path rows =
        file(
            "{\"response\": \"so \\\\boxed{\\\\frac12}\", \"ground_truth\": \"0.5\", \"label\": true}",
            "{\"response\": \"so \\\\boxed{3}\", \"ground_truth\": \"4\", \"label\": 0}",
            "",
            "{\"response\": \"The answer is 7.\", \"ground_truth\": \"7\", \"label\": \"correct\"}",
            "{\"response\": \"\\\\boxed{9}\", \"ground_truth\": \"9\"}");
    Result r = score(rows.toString(), "--reward", "math");
    assertEquals(0, r.code(), r.err());
    String[] lines = r.out().split("\n", -1);
    assertEquals("line\tscore\tlabel\tpred", lines[0]);
    assertEquals("1\t1\t1\t\\frac12", lines[1]);
    assertEquals("2\t0\t0\t3", lines[2]);
    assertEquals("4\t0\t1\t", lines[3]); // no box: VeRL's extraction finds nothing
    assertEquals("5\t1\t-\t9", lines[4]);
    assertTrue(r.out().contains("agreement with labels: 2/3 = 66.7%"), r.out());
    assertTrue(r.out().contains("  label=1           1         1"), r.out());
    assertTrue(r.out().contains("  label=0           0         1"), r.out());
    assertTrue(r.out().contains("scored 4 rows in"), r.out());

    Result lenient =
        score(rows.toString(), "--reward", "math", "--kwargs", "extraction=math_verify");
    assertEquals(0, lenient.code(), lenient.err());
    assertTrue(lenient.out().contains("4\t1\t1\t7"), lenient.out());
    assertTrue(lenient.out().contains("agreement with labels: 3/3 = 100.0%"), lenient.out());
  }

  @Test
  void unlabelledRowsPrintNoAgreement() throws IOException {
    Result r =
        score(
            file("{\"response\": \"#### 18\", \"ground_truth\": \"18\"}").toString(),
            "--reward",
            "gsm8k");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("line\tscore\tlabel\tpred\n1\t1\t-\t18\n"), r.out());
    assertFalse(r.out().contains("agreement"), r.out());
  }

  @Test
  void badInputIsOneLineAndExitCodeTwo() throws IOException {
    Path missingField = file("{\"response\": \"\\\\boxed{1}\"}");
    assertBad(
        score(missingField.toString(), "--reward", "math"),
        "rows.jsonl:1: missing field 'ground_truth'");
    Path notJson = file("{\"response\": \"x\", \"ground_truth\": \"1\"}", "{oops");
    assertBad(score(notJson.toString(), "--reward", "math"), "rows.jsonl:2: not JSON");
    Path badLabel = file("{\"response\": \"x\", \"ground_truth\": \"1\", \"label\": \"maybe\"}");
    assertBad(score(badLabel.toString(), "--reward", "math"), "label 'maybe'");
    Path ok = file("{\"response\": \"x\", \"ground_truth\": \"1\"}");
    assertBad(score(tmp.resolve("nope.jsonl").toString(), "--reward", "math"), "no such file");
    assertBad(score(ok.toString()), "needs a file and --reward");
    assertBad(score(ok.toString(), "--reward", "no_such_reward"), "no_such_reward");
    assertBad(
        score(ok.toString(), "--reward", "math", "--kwargs", "extraction=loose"), "extraction");
    assertBad(score(ok.toString(), "--reward", "math", "--kwargs", "oops"), "not key=value");
    assertBad(score(ok.toString(), "--reward"), "--reward needs a value");
  }

  private static void assertBad(Result r, String expected) {
    assertEquals(2, r.code(), r.out() + r.err());
    assertTrue(r.err().contains(expected), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
  }
}
