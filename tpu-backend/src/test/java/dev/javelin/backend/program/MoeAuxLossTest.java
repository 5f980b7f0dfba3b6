package dev.javelin.backend.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.graph.VjpPrograms;
import dev.javelin.backend.model.DecoderModel;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.KvPolicy;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The load-balancing loss as the train step sees it: the third output of a Mixture-of-Experts
 * log-prob program is transformers' {@code load_balancing_loss_func} (tools/hf_fixtures.py), a
 * dense model's program has no such output, and differentiating it with a coefficient changes every
 * gradient by exactly coef × d(aux)/dθ, the router's too, whose d(aux)/dθ on the reference device
 * agrees with central differences.
 */
public class MoeAuxLossTest {
  private static final String ROUTER_0 = "model.layers.0.mlp.gate.weight";
  private static final float COEF = 0.25f;

  static Stream<Arguments> cases() {
    return Stream.of("cpu", "xla:cpu")
        .flatMap(
            d -> Stream.of("qwen3-moe-tiny", "qwen3-moe-routed-tiny").map(m -> Arguments.of(d, m)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void logProbProgramReportsTransformersAuxLoss(String device, String name) {
    HfFixture fx = HfFixture.load(name);
    Program p = logProbs(fx);
    assertEquals(3, p.outputs().size(), "logp, entropy, aux loss");
    try (Device d = Devices.open(device)) {
      List<Tensor> out = HfFixture.run(d, p, inputs(fx));
      Tensor got = new Tensor.F32(Shape.of(1), new float[] {(float) out.get(2).getDouble(0)});
      RelError.assertClose(name + " aux loss on " + device, fx.get("aux_loss"), got, 1e-5);
    }
  }

  @Test
  void denseLogProbProgramHasNoAuxLoss() {
    ModelConfig dense =
        new ModelConfig(13, 8, 12, 2, 4, 2, 2, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);
    assertEquals(2, ModelPrograms.logProbs(dense, 2, 5, 16).outputs().size());
  }

  /**
   * One backward with the aux loss differentiated at cotangent COEF minus one without it is COEF ×
   * the aux loss's own gradient (from the reference device) for every weight.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"cpu", "xla:cpu"})
  void coefficientAddsExactlyItsMultipleOfTheAuxGradient(String device) {
    HfFixture fx = HfFixture.load("qwen3-moe-tiny");
    Program p = logProbs(fx);
    List<String> names = weightNames(fx.config());
    Map<String, Tensor> auxGrad = auxGradient(fx, names);
    Tensor dLogp = Tensors.random(new Random(7), DType.F32, fx.batch(), fx.length() - 1);
    try (Device d = Devices.open(device)) {
      List<Tensor> with =
          backward(
              d, TrainPrograms.logProbsVjp(p, names, false, true, Remat.ELEMENTWISE), fx, dLogp);
      List<Tensor> without =
          backward(
              d, TrainPrograms.logProbsVjp(p, names, false, false, Remat.ELEMENTWISE), fx, dLogp);
      for (int i = 0; i < names.size(); i++) {
        double[] a = Tensors.toDoubles(with.get(i));
        double[] b = Tensors.toDoubles(without.get(i));
        double[] diff = new double[a.length];
        for (int k = 0; k < a.length; k++) {
          diff[k] = (a[k] - b[k]) / COEF;
        }
        Tensor want = auxGrad.get(names.get(i));
        double scale = maxAbs(Tensors.toDoubles(auxGrad.get(ROUTER_0)));
        double err = maxAbsDiff(Tensors.toDoubles(want), diff) / scale;
        assertTrue(err < 1e-3, names.get(i) + " on " + device + ": error " + err);
      }
    }
  }

  /** d(aux)/dθ on the reference device, its router entries checked by central differences. */
  public static Map<String, Tensor> auxGradient(HfFixture fx, List<String> names) {
    ModelConfig c = fx.config();
    GraphBuilder g = new GraphBuilder("aux_only");
    ModelPrograms.Inputs in0 = ModelPrograms.declare(g, c, fx.batch(), fx.length(), fx.length());
    DecoderModel m = new DecoderModel(c);
    m.hidden(
        g,
        in0.compute(),
        in0.ids(),
        in0.cos(),
        in0.sin(),
        m.dense(ModelPrograms.causal(g, c, in0), KvPolicy.SELF));
    Program auxOnly = g.build(m.routerAuxLoss(g, in0.mask()));
    Program grad = Autodiff.gradientProgram(auxOnly, names);
    Map<String, Tensor> in = inputs(fx);
    Map<String, Tensor> out = new HashMap<>();
    try (Device ref = Devices.open("ref")) {
      List<Tensor> r = HfFixture.run(ref, grad, in);
      for (int i = 0; i < names.size(); i++) {
        out.put(names.get(i), r.get(1 + i));
      }
      float[] router = ((Tensor.F32) in.get(ROUTER_0)).data();
      double[] analytic = Tensors.toDoubles(out.get(ROUTER_0));
      double scale = maxAbs(analytic);
      assertTrue(scale > 0, "the aux loss reaches the router");
      double h = 1e-3;
      for (int k = 0; k < router.length; k += 3) {
        float keep = router[k];
        router[k] = (float) (keep + h);
        double up = HfFixture.run(ref, auxOnly, in).get(0).getDouble(0);
        router[k] = (float) (keep - h);
        double down = HfFixture.run(ref, auxOnly, in).get(0).getDouble(0);
        router[k] = keep;
        double fd = (up - down) / (2 * h);
        assertEquals(analytic[k], fd, 2e-2 * scale, "d(aux)/d " + ROUTER_0 + "[" + k + "]");
      }
    }
    return out;
  }

  private static List<Tensor> backward(Device d, VjpPrograms split, HfFixture fx, Tensor dLogp) {
    Map<String, DeviceBuffer> bufs = new HashMap<>();
    inputs(fx).forEach((k, v) -> bufs.put(k, d.upload(v)));
    List<DeviceBuffer> args = Bindings.bind(split.forward(), bufs);
    List<DeviceBuffer> fwd = d.compile(split.forward()).run(args);
    List<DeviceBuffer> dys = new ArrayList<>();
    for (int idx : split.cotangentOutputs()) {
      dys.add(d.upload(idx == 0 ? dLogp : Tensor.scalar(COEF)));
    }
    List<Tensor> grads = new ArrayList<>();
    for (DeviceBuffer b :
        d.compile(split.backward()).run(split.backwardArguments(args, fwd, dys))) {
      grads.add(b.toHost());
      b.close();
    }
    fwd.forEach(DeviceBuffer::close);
    dys.forEach(DeviceBuffer::close);
    bufs.values().forEach(DeviceBuffer::close);
    return grads;
  }

  private static Program logProbs(HfFixture fx) {
    return ModelPrograms.logProbs(fx.config(), fx.batch(), fx.length(), fx.length());
  }

  private static Map<String, Tensor> inputs(HfFixture fx) {
    Map<String, Tensor> in = new HashMap<>(fx.inputs());
    in.put(ModelPrograms.TEMPERATURE, Tensor.scalar(1f));
    return in;
  }

  private static List<String> weightNames(ModelConfig c) {
    return WeightSpec.layout(c).stream().map(WeightSpec::name).toList();
  }

  private static double maxAbs(double[] x) {
    double m = 0;
    for (double v : x) {
      m = Math.max(m, Math.abs(v));
    }
    return m;
  }

  private static double maxAbsDiff(double[] a, double[] b) {
    double m = 0;
    for (int k = 0; k < a.length; k++) {
      m = Math.max(m, Math.abs(a[k] - b[k]));
    }
    return m;
  }
}
