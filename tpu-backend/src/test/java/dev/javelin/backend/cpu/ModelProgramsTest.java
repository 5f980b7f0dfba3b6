package dev.javelin.backend.cpu;

import dev.javelin.backend.DType;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.SlotPrograms;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The real programs of the framework (forward, log-probs, prefill, decode, the fused train step and
 * the log-prob VJP) on the cpu device against the reference device, on a micro Qwen2-style config
 * (grouped-query attention, q/k/v biases, tied embeddings).
 */
class ModelProgramsTest {
  private static final ModelConfig MICRO =
      new ModelConfig(64, 32, 48, 2, 4, 2, 8, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);

  /** Whole-model tolerance: the products accumulate in f32 here and in f64 in the reference. */
  private static final double TOL = 1e-4;

  /**
   * bf16 whole-model tolerance (f32 outputs, scaled error). Both devices round every op to bf16 and
   * agree to ~1e-7 on these inputs (log-probs 7e-8, the train step under 1e-6, measured); the slack
   * is for an f32 result landing on the other side of a bf16 rounding boundary, which moves one
   * activation by 2^-8 relative.
   */
  private static final double BF16_TOL = 5e-3;

  private static final int B = 3;
  private static final int T = 7;
  private static final int SLOT = 9;

  @Test
  void forwardAndLogProbs() {
    check(ModelPrograms.forward(MICRO, B, T, MICRO.maxPositions()), T);
    check(ModelPrograms.logProbs(MICRO, B, T, MICRO.maxPositions()), T);
  }

  @Test
  void prefillAndDecode() {
    check(ModelPrograms.prefill(MICRO, B, T, 12, MICRO.maxPositions()), T);
    check(SlotPrograms.decode(MICRO, B, 12, MICRO.maxPositions()), 1);
  }

  @Test
  void fusedTrainStep() {
    Program p =
        TrainPrograms.fused(
            MICRO, B, T, MICRO.maxPositions(), new PgLoss(), AdamWConfig.defaults());
    check(p, T);
  }

  /**
   * Mixed precision (bf16 weights and activations, f32 norms, softmax, logits and loss): the cpu
   * device rounds where the reference does, so log-probs and a whole train step (loss, gradients
   * through the casts, AdamW on the f32 masters) agree to a few bf16 roundings.
   */
  @Test
  void bf16LogProbsAndTrainStep() {
    check(
        ModelPrograms.logProbs(MICRO, B, T, MICRO.maxPositions(), LoraConfig.NONE, DType.BF16),
        T,
        BF16_TOL);
    Program step =
        TrainPrograms.fused(
            MICRO,
            B,
            T,
            MICRO.maxPositions(),
            new PgLoss(),
            AdamWConfig.defaults(),
            Remat.NONE,
            DType.BF16);
    check(step, T, BF16_TOL);
  }

  @Test
  void logProbVjp() {
    VjpPrograms vjp = TrainPrograms.logProbsVjp(MICRO, B, T, MICRO.maxPositions());
    List<Tensor> in = inputs(vjp.forward(), T);
    List<Tensor> results = CpuCheck.matches(vjp.forward(), TOL, in);
    List<Tensor> expected = ReferenceDevice.evaluate(vjp.forward(), in);
    Random rng = new Random(5);
    List<Tensor> cotangents = new ArrayList<>();
    for (int i : vjp.cotangentOutputs()) {
      cotangents.add(Tensors.uniform(rng, DType.F32, results.get(i).shape(), -1, 1));
    }
    CpuCheck.matches(vjp.backward(), TOL, vjp.backwardArguments(in, expected, cotangents));
  }

  private static void check(Program p, int t) {
    check(p, t, TOL);
  }

  private static void check(Program p, int t, double tol) {
    CpuCheck.matches(p, tol, inputs(p, t));
  }

  private static List<Tensor> inputs(Program p, int t) {
    return ModelInputs.of(MICRO, p, t, SLOT);
  }
}
