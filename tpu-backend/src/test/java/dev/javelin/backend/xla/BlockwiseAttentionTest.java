package dev.javelin.backend.xla;

import static dev.javelin.backend.xla.ScannedLayersTest.count;
import static dev.javelin.backend.xla.ScannedLayersTest.gradients;
import static dev.javelin.backend.xla.ScannedLayersTest.run;
import static dev.javelin.backend.xla.ScannedLayersTest.trainable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.model.CausalAttention;
import dev.javelin.backend.model.Gemma3Family;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.stablehlo.StableHloPrinter;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.WithProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Blockwise attention with an online softmax ({@code -Djavelin.attention.block=N}) against the
 * dense attention it replaces: log-probs, the fused train step (its loss, grad norm, new weights
 * and AdamW moments carry the gradients) and the trainer's host-loss split give the same values on
 * {@code ref}, {@code cpu} and {@code xla:cpu}, for key blocks that divide the sequence, that leave
 * a padded last block and that cover it in one, with left and right padding, sliding windows, and
 * the layers unrolled or scanned.
 */
class BlockwiseAttentionTest {
  /** The same sums in another order (per block, rescaled): f32 rounding only. */
  private static final double TOL = 2e-5;

  private static final double BF16_TOL = 1e-2;
  private static final int B = 2;
  private static final int T = 6;
  @RegisterExtension static final OracleDevices DEVICES = new OracleDevices();

  /** Qwen2-style: q/k/v biases, tied head, grouped-query attention (2 query heads per kv head). */
  private static ModelConfig micro(int layers) {
    return new ModelConfig(
        64, 32, 48, layers, 4, 2, 8, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);
  }

  /** Gemma 3-style: sliding-window blocks (3 tokens) around a global one. */
  private static ModelConfig gemma(int layers) {
    Gemma3Family family = new Gemma3Family(3, List.of(), 2, 10_000, 4, 16, 0);
    return new ModelConfig(64, 32, 48, layers, 4, 2, 8, 1e6, 1e-6, true, false, 16, family);
  }

  @Test
  void logProbsMatchDenseForEveryBlockSizeOnEveryDevice() {
    ModelConfig c = micro(2);
    for (int block : new int[] {2, 4, 8}) {
      assertSame(c, block, "unrolled", () -> ModelPrograms.logProbs(c, B, T, c.maxPositions()));
    }
  }

  @Test
  void trainStepMatchesDenseUnrolledAndScanned() {
    ModelConfig c = micro(2);
    for (String layers : List.of("unrolled", "scanned")) {
      assertSame(c, 4, layers, () -> train(c, DType.F32));
    }
  }

  @Test
  void slidingWindowBlocksMatchDenseUnrolledAndScanned() {
    ModelConfig c = gemma(3);
    assertTrue(c.architecture().attention(0).window() > 0, "block 0 slides");
    assertSame(c, 2, "unrolled", () -> ModelPrograms.logProbs(c, B, T, c.maxPositions()));
    assertSame(c, 4, "scanned", () -> train(c, DType.F32));
  }

  /**
   * The trainer's split: forward with residuals, backward from cotangents of logp and entropy;
   * unrolled under elementwise remat, scanned under per-block remat (the trainer's two set-ups).
   */
  @Test
  void hostLossSplitGradientsMatchDense() {
    ModelConfig c = micro(3);
    assertVjpSame(c, Remat.ELEMENTWISE, "unrolled");
    assertVjpSame(c, Remat.BLOCKS, "scanned");
  }

  private static void assertVjpSame(ModelConfig c, Remat remat, String layers) {
    Supplier<VjpPrograms> build =
        () ->
            TrainPrograms.logProbsVjp(
                ModelPrograms.logProbs(c, B, T, c.maxPositions()),
                trainable(c),
                true,
                false,
                remat);
    VjpPrograms dense = with(0, layers, build);
    VjpPrograms blocks = with(4, layers, build);
    List<Tensor> args = ModelInputs.of(c, dense.forward(), T, 5);
    for (Device d : DEVICES.all()) {
      List<Tensor> expected = gradients(d, dense, args);
      List<Tensor> actual = gradients(d, blocks, args);
      for (int i = 0; i < expected.size(); i++) {
        String what = d.name() + " " + remat + " " + layers + " gradient " + i;
        RelError.assertClose(what, expected.get(i), actual.get(i), TOL);
      }
    }
  }

  /** A left-padded row (a prompt padded on the left, as a GRPO batch is) sees the same scores. */
  @Test
  void leftPaddedRowsMatchDense() {
    ModelConfig c = micro(2);
    Supplier<Program> build = () -> train(c, DType.F32);
    Program dense = with(0, "unrolled", build);
    Program blocks = with(4, "unrolled", build);
    List<Tensor> args = leftPadded(dense, ModelInputs.of(c, dense, T, 5));
    for (Device d : List.of(DEVICES.ref(), DEVICES.xla())) {
      List<Tensor> expected = run(d, dense, args);
      List<Tensor> actual = run(d, blocks, args);
      for (int i = 0; i < expected.size(); i++) {
        RelError.assertClose(d.name() + " output " + i, expected.get(i), actual.get(i), TOL);
      }
    }
  }

  @Test
  void bf16TrainStepStaysNearTheDenseOracle() {
    ModelConfig c = micro(2);
    Supplier<Program> build = () -> train(c, DType.BF16);
    Program dense = with(0, "unrolled", build);
    Program blocks = with(4, "unrolled", build);
    List<Tensor> args = ModelInputs.of(c, dense, T, 5);
    List<Tensor> oracle = run(DEVICES.ref(), dense, args);
    for (Device d : DEVICES.all()) {
      List<Tensor> actual = run(d, blocks, args);
      for (int i = 0; i < oracle.size(); i++) {
        RelError.assertClose(d.name() + " bf16 " + i, oracle.get(i), actual.get(i), BF16_TOL);
      }
    }
  }

  /**
   * The printed log-prob program holds one loop per layer's attention and no score matrix: with T =
   * 40 and blocks of 8 keys no value is (…, 40, 40), only (…, 40, 8) tiles.
   */
  @Test
  void programHoldsTilesNotTheScoreMatrix() {
    ModelConfig c = micro(2);
    int t = 40;
    String dense = print(with(0, "unrolled", () -> ModelPrograms.logProbs(c, B, t, 64)));
    String blocks = print(with(8, "unrolled", () -> ModelPrograms.logProbs(c, B, t, 64)));
    assertTrue(dense.contains("x40x40xf32>"), "the dense program holds (…, T, T) scores");
    assertFalse(blocks.contains("x40x40xf32>"), "the blockwise program holds no (…, T, T) value");
    assertTrue(blocks.contains("x40x8xf32>"), "it holds (…, T, block) tiles");
    assertEquals(2, count(blocks, "\"stablehlo.while\""), "one loop per layer's attention");
  }

  @Test
  void aBadBlockSizeNamesTheProperty() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                WithProperty.with(
                    CausalAttention.PROPERTY, "-3", CausalAttention::configuredBlock));
    assertTrue(e.getMessage().contains(CausalAttention.PROPERTY), e.getMessage());
  }

  private static Program train(ModelConfig c, DType compute) {
    return TrainPrograms.fused(
        c, B, T, c.maxPositions(), new PgLoss(), AdamWConfig.defaults(), Remat.NONE, compute);
  }

  private static void assertSame(ModelConfig c, int block, String layers, Supplier<Program> b) {
    Program dense = with(0, layers, b);
    Program blocks = with(block, layers, b);
    assertTrue(print(blocks).contains("stablehlo.while"), "the blockwise program has no loop");
    List<Tensor> args = ModelInputs.of(c, dense, T, 5);
    for (Device d : DEVICES.all()) {
      List<Tensor> expected = run(d, dense, args);
      List<Tensor> actual = run(d, blocks, args);
      assertEquals(expected.size(), actual.size());
      for (int i = 0; i < expected.size(); i++) {
        String what = d.name() + " block " + block + " " + layers + " " + dense.name() + " " + i;
        RelError.assertClose(what, expected.get(i), actual.get(i), TOL);
      }
    }
  }

  /** Row 1's first two tokens turned into left padding (mask 0). */
  private static List<Tensor> leftPadded(Program p, List<Tensor> args) {
    List<Tensor> out = new ArrayList<>(args);
    for (int i = 0; i < p.parameters().size(); i++) {
      String name = ((Op.Parameter) p.parameters().get(i).op()).name();
      if (name.equals(ModelPrograms.ATTENTION_MASK)) {
        float[] mask = new float[B * T];
        for (int j = 0; j < mask.length; j++) {
          mask[j] = j < T || j % T >= 2 ? 1f : 0f;
        }
        out.set(i, new Tensor.F32(args.get(i).shape(), mask));
      }
    }
    return out;
  }

  /** Builds with {@code block} keys per attention block (0: dense) and the layers as named. */
  private static <T> T with(int block, String layers, Supplier<T> build) {
    Supplier<T> laid =
        () ->
            layers.equals("scanned")
                ? ScannedLayersTest.scanned(build)
                : ScannedLayersTest.unrolled(build);
    return WithProperty.with(CausalAttention.PROPERTY, Integer.toString(block), laid);
  }

  private static String print(Program p) {
    return StableHloPrinter.print(p);
  }
}
