package dev.javelin.recipes.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.metrics.BoundedMapper;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.RewardScorer;
import dev.javelin.rewards.RewardScorerConfig;
import dev.javelin.rewards.ScoredBatch;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code javelin score <responses.jsonl> --reward NAME [--kwargs k=v,...]}: scores each row's
 * {@code response} against its {@code ground_truth} with a registered reward and prints the score
 * per row; with {@code label}s, the agreement and a confusion table. A row is "accepted" when the
 * reward's {@code acc} extra says so, else when its score is positive. For checking a reward on
 * one's own graded data.
 */
final class ScoreCommand {
  /** Longest line read; a longer one is a bad file, not a response. */
  static final int MAX_LINE_CHARS = 16 * 1024 * 1024;

  private static final int PRED_CHARS = 60;
  private static final ObjectMapper JSON = BoundedMapper.of(16, MAX_LINE_CHARS);

  /** One labelled (or unlabelled) row of the input. */
  record Row(int line, String dataSource, String response, String groundTruth, Boolean label) {}

  private final PrintStream out;

  ScoreCommand(PrintStream out) {
    this.out = out;
  }

  int run(List<String> args) {
    String file = null;
    String reward = null;
    String kwargs = "";
    String source = null;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      switch (a) {
        case "--reward" -> reward = value(args, ++i, a);
        case "--kwargs" -> kwargs = value(args, ++i, a);
        case "--data-source" -> source = value(args, ++i, a);
        default -> {
          if (a.startsWith("--") || file != null) {
            throw new ConfigException("score: unexpected argument '" + a + "'; " + USAGE);
          }
          file = a;
        }
      }
    }
    if (file == null || reward == null) {
      throw new ConfigException("score needs a file and --reward; " + USAGE);
    }
    RewardFunction fn = RewardRegistry.load().create(reward, parseKwargs(kwargs));
    List<Row> rows = read(Path.of(file), source == null ? reward : source);
    long t0 = System.nanoTime();
    ScoredBatch batch;
    try (RewardScorer scorer = new RewardScorer(fn, RewardScorerConfig.defaults())) {
      batch = scorer.scoreAll(rows.stream().map(ScoreCommand::input).toList());
    }
    long nanos = System.nanoTime() - t0;
    report(rows, batch.results());
    out.printf(
        Locale.ROOT,
        "scored %d rows in %.1f ms (%.1f ms per 1,000); errors %d, timeouts %d%n",
        rows.size(),
        nanos / 1e6,
        rows.isEmpty() ? 0.0 : nanos / 1e3 / rows.size(),
        batch.metrics().getOrDefault("reward/errors", 0.0).longValue(),
        batch.metrics().getOrDefault("reward/timeouts", 0.0).longValue());
    return 0;
  }

  static final String USAGE =
      "usage: javelin score <responses.jsonl> --reward NAME [--kwargs k=v,...] [--data-source S]";

  private static String value(List<String> args, int i, String flag) {
    if (i >= args.size()) {
      throw new ConfigException("score: " + flag + " needs a value; " + USAGE);
    }
    return args.get(i);
  }

  /** {@code a=1,b=true,c=text}: numbers and booleans typed, the rest strings. */
  static Map<String, Object> parseKwargs(String s) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (s.isBlank()) {
      return m;
    }
    for (String pair : s.split(",", -1)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new ConfigException("score --kwargs: '" + pair + "' is not key=value");
      }
      String v = pair.substring(eq + 1).strip();
      Object typed = v;
      if (v.equals("true") || v.equals("false")) {
        typed = Boolean.parseBoolean(v);
      } else if (v.matches("-?\\d+(\\.\\d+)?([eE]-?\\d+)?")) {
        typed = Double.parseDouble(v);
      }
      m.put(pair.substring(0, eq).strip(), typed);
    }
    return m;
  }

  /** Every row of {@code file}, checked before anything is scored. */
  static List<Row> read(Path file, String defaultSource) {
    if (!Files.isRegularFile(file)) {
      throw new ConfigException(file + ": no such file (score reads a JSONL file of rows)");
    }
    List<Row> rows = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      for (int n = 1; (line = r.readLine()) != null; n++) {
        if (line.length() > MAX_LINE_CHARS) {
          throw new ConfigException(file + ":" + n + ": line longer than " + MAX_LINE_CHARS);
        }
        if (!line.isBlank()) {
          rows.add(row(file, n, line, defaultSource));
        }
      }
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot read (" + e.getMessage() + ")");
    }
    return rows;
  }

  private static Row row(Path file, int n, String line, String defaultSource) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new ConfigException(
          file + ":" + n + ": not JSON (" + e.getOriginalMessage() + "); one object per line");
    }
    if (node == null || !node.isObject()) {
      throw new ConfigException(file + ":" + n + ": not a JSON object; one object per line");
    }
    String where = file + ":" + n;
    JsonNode src = node.get("data_source");
    return new Row(
        n,
        src != null && src.isTextual() ? src.asText() : defaultSource,
        text(node, "response", where),
        text(node, "ground_truth", where),
        label(node.get("label"), where));
  }

  private static String text(JsonNode node, String field, String where) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      throw new ConfigException(where + ": missing field '" + field + "'");
    }
    if (!v.isValueNode()) {
      throw new ConfigException(where + ": field '" + field + "' must be a string or a number");
    }
    return v.asText();
  }

  /** true/false, 1/0, or "correct"/"incorrect"; absent is no label. */
  private static Boolean label(JsonNode v, String where) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isBoolean()) {
      return v.asBoolean();
    }
    String s = v.asText().strip().toLowerCase(Locale.ROOT);
    return switch (s) {
      case "1", "1.0", "true", "correct" -> true;
      case "0", "0.0", "false", "incorrect" -> false;
      default ->
          throw new ConfigException(
              where + ": label '" + v.asText() + "' is not true/false, 1/0 or correct/incorrect");
    };
  }

  private static RewardInput input(Row r) {
    return new RewardInput(r.dataSource(), "", r.response(), r.groundTruth(), Map.of());
  }

  /** Whether the reward accepted the answer: its {@code acc} extra, else a positive score. */
  static boolean accepted(RewardResult r) {
    Object acc = r.extras().get("acc");
    return acc instanceof Boolean b ? b : r.score() > 0;
  }

  private void report(List<Row> rows, List<RewardResult> results) {
    out.println("line\tscore\tlabel\tpred");
    int[][] confusion = new int[2][2]; // [label 1/0][accepted 1/0]
    int labelled = 0;
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      RewardResult r = results.get(i);
      String pred = String.valueOf(r.extras().getOrDefault("pred", ""));
      pred = pred.length() > PRED_CHARS ? pred.substring(0, PRED_CHARS) + "..." : pred;
      String label = row.label() == null ? "-" : row.label() ? "1" : "0";
      out.printf(
          Locale.ROOT, "%d\t%s\t%s\t%s%n", row.line(), score(r.score()), label, oneLine(pred));
      if (row.label() != null) {
        labelled++;
        confusion[row.label() ? 0 : 1][accepted(r) ? 0 : 1]++;
      }
    }
    if (labelled > 0) {
      int agree = confusion[0][0] + confusion[1][1];
      out.printf(
          Locale.ROOT,
          "agreement with labels: %d/%d = %.1f%%%n",
          agree,
          labelled,
          100.0 * agree / labelled);
      out.println("              reward=1  reward=0");
      out.printf(Locale.ROOT, "  label=1   %9d %9d%n", confusion[0][0], confusion[0][1]);
      out.printf(Locale.ROOT, "  label=0   %9d %9d%n", confusion[1][0], confusion[1][1]);
    }
  }

  private static String score(double s) {
    return s == Math.rint(s) ? String.valueOf((long) s) : String.format(Locale.ROOT, "%.4g", s);
  }

  private static String oneLine(String s) {
    return s.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
  }
}
