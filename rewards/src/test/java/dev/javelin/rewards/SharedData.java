package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the shared read-only datasets; fails loudly (never skips) when they are missing. */
public final class SharedData {

  private static final ObjectMapper JSON = new ObjectMapper();

  private SharedData() {}

  /** {@code ${javelin.root}/../shared/datasets/<relative>}, which must exist. */
  public static Path dataset(String relative) {
    String root = System.getProperty("javelin.root");
    if (root == null) {
      fail("system property javelin.root is not set (surefire sets it to the repository root)");
    }
    Path p = Path.of(root).resolve("../shared/datasets").resolve(relative).normalize();
    if (!Files.isRegularFile(p)) {
      fail("shared dataset missing: " + p + " (see ../shared/datasets/README.md)");
    }
    return p;
  }

  /** Every row of a JSONL dataset. */
  public static List<JsonNode> jsonl(String relative) throws IOException {
    List<JsonNode> rows = new ArrayList<>();
    for (String line : Files.readAllLines(dataset(relative), StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        rows.add(JSON.readTree(line));
      }
    }
    return rows;
  }
}
