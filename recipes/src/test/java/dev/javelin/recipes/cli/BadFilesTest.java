package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broken model and data files: each stops the command at start-up with exit code 2 and one {@code
 * javelin:} line naming the file, never a stack trace.
 */
class BadFilesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path shared;
  private static Path good; // a checkpoint of the tiny arith model, 2 layers

  @TempDir Path tmp;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeAll
  static void trainOneStep() {
    Path dir = shared.resolve("run");
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(sink, true, StandardCharsets.UTF_8);
    assertEquals(
        0,
        Main.run(
            TinyRecipe.runArgs(
                dir, 1, "trainer.save_freq=1", "actor_rollout_ref.model.init.layers=2"),
            ps,
            ps),
        sink.toString(StandardCharsets.UTF_8));
    good = dir.resolve("global_step_1");
  }

  @Test
  void configJsonThatContradictsTheWeights() throws IOException {
    badConfig("hidden_size", c -> c.put("hidden_size", 24), "model.safetensors");
    badConfig("vocab_size", c -> c.put("vocab_size", 50), "model.safetensors");
    badConfig("more layers", c -> c.put("num_hidden_layers", 3), "model.layers.2.");
    badConfig("fewer layers", c -> c.put("num_hidden_layers", 1), "model.layers.1.");
  }

  @Test
  void configJsonThatMakesNoModel() throws IOException {
    badConfig("zero heads", c -> c.put("num_attention_heads", 0), "config.json");
    badConfig("model_type", c -> c.put("model_type", "gpt9"), "config.json");
  }

  @Test
  void malformedConfigJsonAndMissingWeights() throws IOException {
    Path ckpt = copy("malformed");
    Files.writeString(ckpt.resolve("config.json"), "{\"hidden_size\": 16,");
    expectBadInput("config.json", "eval", ckpt.toString());

    ckpt = copy("noweights");
    Files.delete(ckpt.resolve("model.safetensors"));
    expectBadInput("model.safetensors", "eval", ckpt.toString());
  }

  @Test
  void randomBytesSafetensors() throws IOException {
    Path ckpt = copy("random-weights");
    byte[] noise = new byte[4096];
    new Random(7).nextBytes(noise);
    Files.write(ckpt.resolve("model.safetensors"), noise);
    expectBadInput("model.safetensors", "eval", ckpt.toString());
  }

  @Test
  void truncatedRandomAndEmptyParquet() throws IOException {
    byte[] real = Files.readAllBytes(dataset("verl-gsm8k/test.parquet"));
    Path truncated = Files.write(tmp.resolve("truncated.parquet"), Arrays.copyOf(real, 5000));
    expectBadInput("truncated.parquet", parquetRun(truncated));
    byte[] noise = new byte[5000];
    new Random(3).nextBytes(noise);
    Path random = Files.write(tmp.resolve("random.parquet"), noise);
    expectBadInput("random.parquet", parquetRun(random));
    Path empty = Files.write(tmp.resolve("empty.parquet"), new byte[0]);
    expectBadInput("empty.parquet", parquetRun(empty));
  }

  @Test
  void parquetWithTheWrongColumns() throws Exception {
    Path file = tmp.resolve("columns.parquet");
    try (var db = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = db.createStatement()) {
      st.execute(
          "COPY (SELECT '2 plus 3' AS question, '#### 5' AS answer) TO '"
              + file
              + "' (FORMAT PARQUET)");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    expectBadInput("columns.parquet", parquetRun(file));
    assertTrue(err().contains("prompt"), err());
  }

  @Test
  void verlLayoutJsonlReadAsGsm8k() throws IOException {
    String row =
        "{\"data_source\": \"openai/gsm8k\", \"prompt\": [{\"role\": \"user\", \"content\": \"2+3\"}],"
            + " \"reward_model\": {\"style\": \"rule\", \"ground_truth\": \"5\"}}\n";
    Path file = Files.writeString(tmp.resolve("verl.jsonl"), row.repeat(8));
    expectBadInput(
        "verl.jsonl",
        TinyRecipe.runArgs(
            tmp.resolve("verl"),
            1,
            "data.synthetic.task=none",
            "data.train_files=[" + file + "]",
            "data.val_files=[]",
            "data.file_format=gsm8k",
            "data.prompt_template=raw",
            "actor_rollout_ref.model.tokenizer_path=char"));
  }

  private String[] parquetRun(Path file) {
    return TinyRecipe.runArgs(
        tmp.resolve("run-" + file.getFileName()),
        1,
        "data.synthetic.task=none",
        "data.train_files=[" + file + "]",
        "data.val_files=[]",
        "actor_rollout_ref.model.tokenizer_path=char");
  }

  private void badConfig(String what, Consumer<ObjectNode> edit, String named) throws IOException {
    Path ckpt = copy(what.replace(' ', '-'));
    ObjectNode config = (ObjectNode) JSON.readTree(ckpt.resolve("config.json").toFile());
    edit.accept(config);
    JSON.writeValue(ckpt.resolve("config.json").toFile(), config);
    expectBadInput(named, "eval", ckpt.toString());
  }

  /** A copy of the good checkpoint (with the run's recipe.yaml) under a new run directory. */
  private Path copy(String name) throws IOException {
    Path run = Files.createDirectories(tmp.resolve(name));
    Path ckpt = Files.createDirectories(run.resolve("global_step_1"));
    try (Stream<Path> files = Files.list(good)) {
      for (Path f : files.toList()) {
        Files.copy(f, ckpt.resolve(f.getFileName()));
      }
    }
    return ckpt;
  }

  private void expectBadInput(String named, String... args) {
    out.reset();
    err.reset();
    int code =
        Main.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String all = out.toString(StandardCharsets.UTF_8) + err();
    assertEquals(2, code, all);
    // Main's error stream gets the one line only (log warnings go to the JVM's own stderr).
    List<String> lines = err().strip().lines().toList();
    assertEquals(1, lines.size(), all);
    assertTrue(lines.get(0).startsWith("javelin: "), all);
    assertTrue(lines.get(0).contains(named), all);
    assertFalse(all.lines().anyMatch(l -> l.matches("^\\s+at [a-z].*")), all);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static Path dataset(String file) {
    Path p = Path.of(System.getProperty("javelin.root", ".."), "..", "shared", "datasets", file);
    assertTrue(Files.isRegularFile(p), "shared dataset missing: " + p);
    return p;
  }
}
