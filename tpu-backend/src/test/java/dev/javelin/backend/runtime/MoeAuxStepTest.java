package dev.javelin.backend.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.program.MoeAuxLossTest;
import dev.javelin.backend.testing.RelError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A train step of the tiny Qwen3-MoE with a host loss of zero: at coefficient 0 it reports
 * transformers' load-balancing loss and changes no weight; at coefficient c its loss is c · aux and
 * the gradient read back from the first AdamW step ({@link PolicyOptimizerTest#INVERTIBLE}) is c ·
 * d(aux)/dθ from the reference device, for every weight.
 */
class MoeAuxStepTest {
  private static final double COEF = 0.5;

  @Test
  void stepReportsAuxLossAndAddsItsGradientOnlyWithACoefficient() {
    HfFixture fx = HfFixture.load("qwen3-moe-tiny");
    double want = fx.get("aux_loss").getDouble(0);
    PolicyOptimizer.StepResult off = step(fx, 0);
    assertEquals(want, off.auxLoss(), 1e-5 * want, "reported at coefficient 0");
    assertEquals(0, off.loss());

    List<String> names = WeightSpec.layout(fx.config()).stream().map(WeightSpec::name).toList();
    Map<String, Tensor> auxGrad = MoeAuxLossTest.auxGradient(fx, names);
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, fx.checkpoint());
        PolicyOptimizer opt =
            new PolicyOptimizer(
                model,
                PolicyOptimizerTest.INVERTIBLE,
                new LrSchedule.Constant(PolicyOptimizerTest.LR),
                new PolicyOptimizer.Options(PolicyOptimizer.defaultRemat(), 0, COEF))) {
      PolicyOptimizer.StepResult on = opt.step(List.of(batch(fx)), 1f, zeroLoss());
      assertEquals(want, on.auxLoss(), 1e-5 * want);
      assertEquals(COEF * on.auxLoss(), on.loss(), 1e-6);
      for (WeightSpec s : WeightSpec.layout(fx.config())) {
        float[] g = ((Tensor.F32) auxGrad.get(s.name())).data().clone();
        for (int i = 0; i < g.length; i++) {
          g[i] *= (float) COEF;
        }
        Tensor.F32 expected = new Tensor.F32(s.shape(), g);
        Tensor.F32 got = PolicyOptimizerTest.recoveredGradient(fx, model.checkpoint(), s);
        RelError.assertClose(s.name(), expected, got, 2e-3);
      }
    }
  }

  /** One step at {@code coef}; with coefficient 0 every weight must come back unchanged. */
  private static PolicyOptimizer.StepResult step(HfFixture fx, double coef) {
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, fx.checkpoint());
        PolicyOptimizer opt =
            new PolicyOptimizer(
                model,
                PolicyOptimizerTest.INVERTIBLE,
                new LrSchedule.Constant(PolicyOptimizerTest.LR),
                new PolicyOptimizer.Options(PolicyOptimizer.defaultRemat(), 0, coef))) {
      PolicyOptimizer.StepResult r = opt.step(List.of(batch(fx)), 1f, zeroLoss());
      for (WeightSpec s : WeightSpec.layout(fx.config())) {
        assertArrayEquals(
            fx.checkpoint().weights().get(s.name()).data(),
            model.checkpoint().weights().get(s.name()).data(),
            s.name() + " unchanged");
      }
      assertTrue(r.applied());
      return r;
    }
  }

  private static TokenBatch batch(HfFixture fx) {
    return new TokenBatch(fx.ids(), (Tensor.F32) fx.get("attention_mask"));
  }

  /** A host loss of 0 everywhere: only the load-balancing loss can move a weight. */
  private static PolicyOptimizer.HostLoss zeroLoss() {
    return new PolicyOptimizer.HostLoss() {
      @Override
      public PolicyOptimizer.Cotangents apply(int i, TokenLogProbs st) {
        Shape s = st.logp().shape();
        return new PolicyOptimizer.Cotangents(0, Tensor.F32.zeros(s), Tensor.F32.zeros(s));
      }

      @Override
      public boolean usesEntropy() {
        return false;
      }
    };
  }
}
