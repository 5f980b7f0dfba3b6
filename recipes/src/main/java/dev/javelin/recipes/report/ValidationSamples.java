package dev.javelin.recipes.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.recipes.metrics.BoundedMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sample validation generations from {@code val_generations.jsonl} (written by the validator): the
 * report shows those of the last validated step. Model output is untrusted: lines are bounded and
 * every field is escaped.
 */
final class ValidationSamples {
  static final int MAX_LINE_CHARS = 256 << 10;
  static final int MAX_SHOWN_CHARS = 2000;

  record Sample(long step, String source, String prompt, String response, double score) {}

  private static final ObjectMapper JSON = BoundedMapper.of(4, MAX_LINE_CHARS);

  private ValidationSamples() {}

  /** The samples of the last step in {@code file}; empty when there is none. */
  static List<Sample> read(Path file) throws IOException {
    List<Sample> last = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return last;
    }
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.length() > MAX_LINE_CHARS) {
          continue;
        }
        JsonNode n;
        try {
          n = JSON.readTree(line);
        } catch (IOException e) {
          continue; // a half-written last line
        }
        if (n == null || !n.isObject()) {
          continue;
        }
        Sample s =
            new Sample(
                n.path("step").asLong(),
                n.path("data_source").asText(""),
                n.path("prompt").asText(""),
                n.path("response").asText(""),
                n.path("score").asDouble(Double.NaN));
        if (!last.isEmpty() && last.get(0).step() != s.step()) {
          last.clear();
        }
        last.add(s);
      }
    }
    return last;
  }

  static void appendTable(StringBuilder sb, List<Sample> samples) {
    if (samples.isEmpty()) {
      return;
    }
    sb.append("<h2>Validation generations at step ")
        .append(samples.get(0).step())
        .append("</h2><table><tr><th>source</th><th>prompt</th><th>response</th>")
        .append("<th>score</th></tr>");
    for (Sample s : samples) {
      sb.append("<tr><td>")
          .append(Html.escape(s.source()))
          .append("</td><td><pre>")
          .append(Html.escape(cut(s.prompt())))
          .append("</pre></td><td><pre>")
          .append(Html.escape(cut(s.response())))
          .append("</pre></td><td>")
          .append(String.format(Locale.ROOT, "%.3f", s.score()))
          .append("</td></tr>");
    }
    sb.append("</table>");
  }

  private static String cut(String s) {
    return s.length() <= MAX_SHOWN_CHARS ? s : s.substring(0, MAX_SHOWN_CHARS) + " …";
  }
}
