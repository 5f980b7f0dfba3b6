package dev.javelin.backend.stablehlo;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.SlotPrograms;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.reference.ReferenceDevice;
import dev.javelin.backend.stablehlo.XlaCpuScript.Case;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The decoder model's programs on a micro config (Qwen2-style: q/k/v biases, tied head, grouped
 * query attention): forward logits, log-probs and entropy at a temperature, prefill and one decode
 * step with the KV cache, the fused train step (loss, gradients, clipped AdamW), the log-prob VJP
 * split for host losses, and the optimizer's own programs. Inputs are meaningful (right-padded
 * masks, rotary tables, valid ids) so the comparison exercises the same numerics as real use.
 */
final class ModelCases {
  static final ModelConfig MICRO =
      new ModelConfig(64, 32, 48, 2, 4, 2, 8, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);
  private static final int B = 2;
  private static final int T = 6;
  private static final int S = 8;
  private static final int SLOT = 5;
  private static final AdamWConfig ADAMW = AdamWConfig.defaults();

  private ModelCases() {}

  static List<Case> all() {
    ModelConfig c = MICRO;
    int p = c.maxPositions();
    List<Case> cases = new ArrayList<>();
    cases.add(of("model_forward", ModelPrograms.forward(c, B, T, p), T));
    cases.add(of("model_logprobs", ModelPrograms.logProbs(c, B, T, p), T));
    cases.add(of("model_prefill", ModelPrograms.prefill(c, B, T, S, p), T));
    cases.add(of("model_decode", SlotPrograms.decode(c, B, S, p), 1));
    cases.add(of("model_train_fused", TrainPrograms.fused(c, B, T, p, new PgLoss(), ADAMW), T));
    cases.addAll(vjpCases(TrainPrograms.logProbsVjp(c, B, T, p)));
    Map<String, Shape> shapes = new LinkedHashMap<>();
    WeightSpec.layout(c).forEach(w -> shapes.put(w.name(), w.shape()));
    cases.add(of("optim_adamw", OptimizerPrograms.adamW(shapes, ADAMW), T));
    cases.add(of("optim_accumulate", OptimizerPrograms.accumulate(shapes), T));
    return cases;
  }

  /**
   * The host-loss split: the forward with residuals, and the backward fed with the residuals the
   * reference forward produced and random cotangents for logp and entropy.
   */
  private static List<Case> vjpCases(VjpPrograms vjp) {
    Case forward = of("model_logprobs_vjp_forward", vjp.forward(), T);
    List<Tensor> results = ReferenceDevice.evaluate(vjp.forward(), forward.inputs());
    Random rng = new Random(11);
    List<Tensor> cotangents = new ArrayList<>();
    for (int i : vjp.cotangentOutputs()) {
      cotangents.add(Tensors.uniform(rng, DType.F32, results.get(i).shape(), -1, 1));
    }
    List<Tensor> args = vjp.backwardArguments(forward.inputs(), results, cotangents);
    return List.of(forward, new Case("model_logprobs_vjp_backward", vjp.backward(), args));
  }

  /** A case with inputs chosen by parameter name; {@code t} is the program's token count. */
  static Case of(String name, Program program, int t) {
    return new Case(
        name, program, ModelInputs.of(MICRO, program, t, SLOT, new Random(name.hashCode())));
  }
}
