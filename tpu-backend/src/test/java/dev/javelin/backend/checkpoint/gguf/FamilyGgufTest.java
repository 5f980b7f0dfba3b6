package dev.javelin.backend.checkpoint.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A family's GGUF, written by tools/gguf_family_fixtures.py with gguf-py's own llama.cpp tensor
 * names and metadata, loads as exactly the HF checkpoint it was converted from: same family and
 * shape, every weight bit-identical, but for the RMSNorm scales llama.cpp stores as {@code 1 + w}
 * (Gemma), which come back within the f32 rounding of that sum.
 */
class FamilyGgufTest {

  @ParameterizedTest
  @ValueSource(strings = {"qwen3-tiny", "qwen3-moe-routed-tiny", "gemma3-pattern-tiny"})
  void ggufLoadsAsTheHfCheckpoint(String name) {
    Path hf = Path.of(System.getProperty("javelin.root"), "tpu-backend/src/test/resources/hf");
    Path gguf = hf.resolve(name + ".gguf");
    assertTrue(
        Files.isRegularFile(gguf), "missing " + gguf + ": run tools/gguf_family_fixtures.py");
    ModelCheckpoint want = ModelCheckpoint.load(hf.resolve(name));
    ModelCheckpoint got = ModelCheckpoint.load(gguf);
    ModelConfig w = want.config();
    ModelConfig g = got.config();
    // GGUF stores ε as f32: equal to the config.json value to f32 precision
    assertEquals(w.rmsNormEps(), g.rmsNormEps(), 1e-12);
    ModelConfig sameEps =
        new ModelConfig(
            w.vocabSize(),
            w.hidden(),
            w.intermediate(),
            w.layers(),
            w.heads(),
            w.kvHeads(),
            w.headDim(),
            w.ropeTheta(),
            g.rmsNormEps(),
            w.tieWordEmbeddings(),
            w.qkvBias(),
            w.maxPositions(),
            w.architecture());
    assertEquals(sameEps, g);
    assertEquals(w.architecture().modelType(), ModelCheckpoint.architecture(gguf));
    boolean shifted = w.architecture().block().normOffset() != 0;
    for (WeightSpec s : WeightSpec.layout(w)) {
      float[] fromHf = want.weights().get(s.name()).data();
      float[] gg = got.weights().get(s.name()).data();
      if (shifted && s.name().endsWith("norm.weight")) {
        // (w + 1) - 1 in f32: off by at most half an ulp of w + 1, which lies below 4
        assertArrayEquals(fromHf, gg, 0x1p-22f, s.name());
      } else {
        assertArrayEquals(fromHf, gg, s.name());
      }
    }
  }
}
