package dev.javelin.backend.program;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.testing.RelError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parity with Hugging Face transformers on tiny random Qwen2 (q/k/v biases, tied head), Llama
 * (untied head) and the other families' checkpoints: logits and log-probs to 1e-4 relative error,
 * gradients to 1e-3.
 */
class HfParityTest {
  /** The fixtures of families beyond Llama/Qwen2 (FamilyParityTest holds them to 1e-5). */
  static final List<String> FAMILIES =
      List.of(
          "qwen3-tiny",
          "qwen3-moe-tiny",
          "qwen3-moe-routed-tiny",
          "gemma3-tiny",
          "gemma3-pattern-tiny");

  /** Every checkpoint on the reference device (the oracle) and the fast CPU device. */
  static Stream<Arguments> cases() {
    List<String> all = new ArrayList<>(List.of("qwen2-tiny", "llama-tiny"));
    all.addAll(FAMILIES);
    return Stream.of("ref", "cpu").flatMap(d -> all.stream().map(m -> Arguments.of(d, m)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void logitsMatchTransformers(String device, String name) {
    assertLogitsMatch(device, name, 1e-4);
  }

  /** The fixture's logits at the tokens inside each row on {@code device}, within {@code tol}. */
  static void assertLogitsMatch(String device, String name, double tol) {
    HfFixture fx = HfFixture.load(name);
    try (Device d = Devices.open(device)) {
      Program p = ModelPrograms.forward(fx.config(), fx.batch(), fx.length(), fx.length());
      Tensor logits = HfFixture.run(d, p, fx.inputs()).get(0);
      RelError.assertClose(name + " logits", fx.get("logits"), logits, fx.validTokens(), tol);
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void logProbsAndEntropyMatchTransformers(String device, String name) {
    HfFixture fx = HfFixture.load(name);
    try (Device ref = Devices.open(device)) {
      Program p = ModelPrograms.logProbs(fx.config(), fx.batch(), fx.length(), fx.length());
      Map<String, Tensor> in = fx.inputs();
      in.put(ModelPrograms.TEMPERATURE, Tensor.scalar(fx.scalar("temperature")));
      List<Tensor> out = HfFixture.run(ref, p, in);
      boolean[] valid = validTargets(fx);
      RelError.assertClose(name + " logp", fx.get("logp"), out.get(0), valid, 1e-4);
      RelError.assertClose(name + " entropy", fx.get("entropy"), out.get(1), valid, 1e-4);
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void gradientsMatchTransformers(String device, String name) {
    assertGradientsMatch(device, name, 1e-4, 1e-3);
  }

  /** The fixture's loss and every weight's gradient on {@code device} within the bounds. */
  static void assertGradientsMatch(String device, String name, double lossTol, double gradTol) {
    HfFixture fx = HfFixture.load(name);
    ModelConfig c = fx.config();
    GraphBuilder g = new GraphBuilder("parity_grad");
    ModelPrograms.Inputs in = ModelPrograms.declare(g, c, fx.batch(), fx.length(), fx.length());
    Node temp = g.parameter(ModelPrograms.TEMPERATURE, DType.F32, Shape.scalar());
    Node resp = g.parameter("response_mask", DType.F32, Shape.of(fx.batch(), fx.length() - 1));
    TokenStats st = TokenStats.of(g, ModelPrograms.forwardLogits(g, c, in), in.ids(), temp);
    // loss = Σ mask · (-logp + c·H) / Σ mask, as recorded by tools/hf_fixtures.py
    Node perToken =
        g.add(g.neg(st.logp()), g.mul(st.entropy(), g.full(st.entropy(), fx.scalar("ent_coef"))));
    Node loss = g.div(g.reduceSum(g.mul(resp, perToken), 0, 1), g.reduceSum(resp, 0, 1));
    List<Node> weights = in.weights().all();
    List<Node> grads = Autodiff.gradient(g, loss, weights);
    List<Node> outs = new ArrayList<>();
    outs.add(loss);
    outs.addAll(grads);
    Program p = g.build(outs);
    Map<String, Tensor> args = fx.inputs();
    args.put(ModelPrograms.TEMPERATURE, Tensor.scalar(fx.scalar("temperature")));
    args.put("response_mask", fx.get("response_mask"));
    try (Device ref = Devices.open(device)) {
      List<Tensor> out = HfFixture.run(ref, p, args);
      RelError.assertClose(name + " loss", fx.get("loss"), reshape1(out.get(0)), lossTol);
      List<String> names = in.weights().names();
      for (int i = 0; i < names.size(); i++) {
        RelError.assertClose(
            name + " grad " + names.get(i),
            fx.get("grad." + names.get(i)),
            out.get(i + 1),
            gradTol);
      }
    }
  }

  private static Tensor reshape1(Tensor scalar) {
    return new Tensor.F32(Shape.of(1), new float[] {(float) scalar.getDouble(0)});
  }

  /** (B, T-1) selection of predicted tokens inside each row. */
  private static boolean[] validTargets(HfFixture fx) {
    Tensor mask = fx.get("attention_mask");
    int b = fx.batch();
    int t = fx.length();
    boolean[] keep = new boolean[b * (t - 1)];
    for (int r = 0; r < b; r++) {
      for (int j = 0; j < t - 1; j++) {
        keep[r * (t - 1) + j] = mask.getDouble(r * t + j + 1) > 0.5;
      }
    }
    return keep;
  }
}
