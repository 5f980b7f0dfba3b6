package dev.javelin.backend.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.SequenceBatch;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.TokenLoss;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.LrSchedule;
import dev.javelin.backend.testing.RelError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Train steps end to end against the transformers gradients. With ε = 1, no decay and no clipping,
 * AdamW's first step is {@code Δw = -η g / (|g| + 1)}, so the gradient can be read back from the
 * weights exactly: {@code g = r / (1 - |r|)} with {@code r = -Δw / η}.
 */
public class PolicyOptimizerTest {
  public static final AdamWConfig INVERTIBLE =
      new AdamWConfig(0.9, 0.999, 1.0, 0.0, Double.POSITIVE_INFINITY);
  public static final double LR = 0.1;

  /**
   * bf16 compute vs the transformers f32 values, relative (gradients: max|a - e| / max|e| per
   * weight). Measured on qwen2-tiny: loss 6.3e-4, worst weight gradient 3.1e-2.
   */
  static final double BF16_LOSS_TOL = 5e-3;

  static final double BF16_GRAD_TOL = 0.1;

  @Test
  void hostLossWithMicroBatchAccumulationRecoversTransformersGradients() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    List<TokenBatch> micro = List.of(rows(fx, 0, 2), rows(fx, 2, 3));
    try (Device ref = Devices.open("ref");
        PolicyModel model = PolicyModel.of(ref, fx.checkpoint());
        PolicyOptimizer trainer =
            new PolicyOptimizer(model, INVERTIBLE, new LrSchedule.Constant(LR))) {
      PolicyOptimizer.StepResult r =
          trainer.step(micro, fx.scalar("temperature"), fixtureLoss(fx, new int[] {0, 2}));
      assertTrue(r.applied());
      assertEquals(1, r.step());
      assertEquals(fx.get("loss").getDouble(0), r.loss(), 1e-4 * Math.abs(r.loss()));
      assertGradientsRecovered(fx, model.checkpoint());
    }
  }

  @Test
  void fusedStepRecoversTransformersGradients() {
    HfFixture fx = HfFixture.load("llama-tiny");
    Tensor.F32 resp = (Tensor.F32) fx.get("response_mask");
    float c = fx.scalar("ent_coef");
    TokenBatch batch = rows(fx, 0, fx.batch());
    int tb = SequenceBatch.LENGTH_BUCKET;
    TokenLoss loss =
        new TokenLoss() {
          @Override
          public String name() {
            return "masked_mean_logp_entropy";
          }

          @Override
          public Node build(GraphBuilder g, TokenStats st) {
            Node mask = g.parameter("response_mask", DType.F32, st.logp().shape());
            Node inv = g.parameter("inv_count", DType.F32, Shape.scalar());
            Node per = g.add(g.neg(st.logp()), g.mul(st.entropy(), g.full(st.entropy(), c)));
            return g.mul(g.reduceSum(g.mul(mask, per), 0, 1), inv);
          }
        };
    Map<String, Tensor> lossInputs =
        Map.of(
            "response_mask", TokenLogProbs.padColumns(resp, tb - 1),
            "inv_count", Tensor.scalar((float) (1 / sum(resp.data()))));
    try (Device ref = Devices.open("ref");
        PolicyModel model = PolicyModel.of(ref, fx.checkpoint());
        PolicyOptimizer trainer =
            new PolicyOptimizer(model, INVERTIBLE, new LrSchedule.Constant(LR))) {
      PolicyOptimizer.StepResult r =
          trainer.stepFused(batch, fx.scalar("temperature"), loss, lossInputs);
      assertTrue(r.applied());
      assertEquals(fx.get("loss").getDouble(0), r.loss(), 1e-4 * Math.abs(r.loss()));
      assertGradientsRecovered(fx, model.checkpoint());
    }
  }

  @Test
  void entropyFreeHostLossMatchesTheFusedStep() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    Tensor.F32 resp = (Tensor.F32) fx.get("response_mask");
    float inv = (float) (1 / sum(resp.data()));
    TokenBatch batch = rows(fx, 0, fx.batch());
    PolicyOptimizer.HostLoss nll =
        new PolicyOptimizer.HostLoss() {
          @Override
          public PolicyOptimizer.Cotangents apply(int i, TokenLogProbs stats) {
            float[] d = new float[resp.data().length];
            for (int j = 0; j < d.length; j++) {
              d[j] = -resp.data()[j] * inv;
            }
            return new PolicyOptimizer.Cotangents(0, new Tensor.F32(resp.shape(), d), null);
          }

          @Override
          public boolean usesEntropy() {
            return false;
          }
        };
    TokenLoss fused =
        new TokenLoss() {
          @Override
          public String name() {
            return "nll";
          }

          @Override
          public Node build(GraphBuilder g, TokenStats st) {
            Node mask = g.parameter("response_mask", DType.F32, st.logp().shape());
            Node sum = g.reduceSum(g.mul(mask, st.logp()), 0, 1);
            return g.mul(g.neg(sum), g.full(sum, inv));
          }
        };
    int tb = SequenceBatch.LENGTH_BUCKET;
    try (Device ref = Devices.open("ref");
        PolicyModel a = PolicyModel.of(ref, fx.checkpoint());
        PolicyModel b = PolicyModel.of(ref, fx.checkpoint());
        PolicyOptimizer ta = new PolicyOptimizer(a, INVERTIBLE, new LrSchedule.Constant(LR));
        PolicyOptimizer tb2 = new PolicyOptimizer(b, INVERTIBLE, new LrSchedule.Constant(LR))) {
      ta.step(List.of(batch), fx.scalar("temperature"), nll);
      tb2.stepFused(
          batch,
          fx.scalar("temperature"),
          fused,
          Map.of("response_mask", TokenLogProbs.padColumns(resp, tb - 1)));
      for (WeightSpec s : WeightSpec.layout(fx.config())) {
        RelError.assertClose(
            s.name(),
            b.checkpoint().weights().get(s.name()),
            a.checkpoint().weights().get(s.name()),
            1e-5);
      }
    }
  }

  /**
   * The fixture's loss (token-mean -logp + ent_coef · H over the response mask) as a host loss;
   * micro-batch i starts at fixture row {@code firstRows[i]}.
   */
  private static PolicyOptimizer.HostLoss fixtureLoss(HfFixture fx, int[] firstRows) {
    Tensor.F32 resp = (Tensor.F32) fx.get("response_mask");
    double count = sum(resp.data());
    float c = fx.scalar("ent_coef");
    return (i, stats) -> {
      int from = firstRows[i];
      int b = stats.logp().shape().dim(0);
      int t = stats.logp().shape().dim(1);
      float[] dLogp = new float[b * t];
      float[] dEnt = new float[b * t];
      double loss = 0;
      for (int j = 0; j < b * t; j++) {
        float m = resp.data()[from * t + j];
        dLogp[j] = (float) (-m / count);
        dEnt[j] = (float) (c * m / count);
        loss += m * (-stats.logp().data()[j] + c * stats.entropy().data()[j]) / count;
      }
      Shape s = Shape.of(b, t);
      return new PolicyOptimizer.Cotangents(
          loss, new Tensor.F32(s, dLogp), new Tensor.F32(s, dEnt));
    };
  }

  /**
   * Mixed precision on the cpu device: forward and backward on a bf16 copy, the update on the f32
   * masters. The recovered gradients are the transformers' (f32) to bf16 accuracy, the loss too.
   */
  @Test
  void bf16ComputeRecoversTransformersGradientsToBf16Accuracy() {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    try (Device cpu = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(cpu, fx.checkpoint(), DType.BF16);
        PolicyOptimizer trainer =
            new PolicyOptimizer(model, INVERTIBLE, new LrSchedule.Constant(LR))) {
      // the model's own log-probs (old log-probs in PPO) are the ones the step computes with
      TokenBatch all = rows(fx, 0, fx.batch());
      TokenLogProbs before = model.logProbs(all, fx.scalar("temperature"));
      PolicyOptimizer.StepResult r =
          trainer.step(
              List.of(all),
              fx.scalar("temperature"),
              (i, stats) -> {
                assertEquals(
                    java.util.Arrays.toString(before.logp().data()),
                    java.util.Arrays.toString(stats.logp().data()),
                    "bf16 step log-probs differ from the model's");
                return fixtureLoss(fx, new int[] {0}).apply(i, stats);
              });
      assertEquals(fx.get("loss").getDouble(0), r.loss(), BF16_LOSS_TOL * Math.abs(r.loss()));
      double worst = 0;
      for (WeightSpec s : WeightSpec.layout(fx.config())) {
        assertEquals(DType.F32, model.checkpoint().weights().get(s.name()).dtype());
        double e =
            RelError.of(
                fx.get("grad." + s.name()), recoveredGradient(fx, model.checkpoint(), s), null);
        worst = Math.max(worst, e);
      }
      assertTrue(worst <= BF16_GRAD_TOL, "worst bf16 gradient error " + worst);
      assertTrue(worst > 1e-4, "no bf16 rounding visible: " + worst);
    }
  }

  private static void assertGradientsRecovered(HfFixture fx, ModelCheckpoint after) {
    for (WeightSpec s : WeightSpec.layout(fx.config())) {
      // f32 weights carry ~6e-8·|w| of rounding, i.e. ~1e-6·|w|/η of gradient noise
      RelError.assertClose(
          s.name(), fx.get("grad." + s.name()), recoveredGradient(fx, after, s), 2e-3);
    }
  }

  /**
   * g = r / (1 - |r|) with r = -Δw / η (in double from the f32 weights): a first INVERTIBLE step.
   */
  public static Tensor.F32 recoveredGradient(HfFixture fx, ModelCheckpoint after, WeightSpec s) {
    float[] w0 = fx.checkpoint().weights().get(s.name()).data();
    float[] w1 = after.weights().get(s.name()).data();
    float[] g = new float[w0.length];
    for (int i = 0; i < g.length; i++) {
      double rr = -((double) w1[i] - w0[i]) / LR;
      g[i] = (float) (rr / (1 - Math.abs(rr)));
    }
    return new Tensor.F32(s.shape(), g);
  }

  private static TokenBatch rows(HfFixture fx, int from, int to) {
    int t = fx.length();
    int[] ids = new int[(to - from) * t];
    float[] mask = new float[(to - from) * t];
    System.arraycopy(fx.ids().data(), from * t, ids, 0, ids.length);
    System.arraycopy(
        ((Tensor.F32) fx.get("attention_mask")).data(), from * t, mask, 0, mask.length);
    Shape s = Shape.of(to - from, t);
    return new TokenBatch(new Tensor.I32(s, ids), new Tensor.F32(s, mask));
  }

  private static double sum(float[] a) {
    double s = 0;
    for (float x : a) {
      s += x;
    }
    return s;
  }
}
