package dev.javelin.backend.program;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.model.DecoderModel;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.KvPolicy;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.MoeFeedForward;
import dev.javelin.backend.model.Qwen3MoeFamily;
import dev.javelin.backend.testing.RelError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Qwen3-MoE routing against transformers (tools/hf_fixtures.py) on {@code cpu} and {@code xla:cpu}:
 * every token of every routed block goes to the same top-k experts (tokens inside the rows), the
 * dense blocks are the ones transformers has, and the load-balancing loss (padding masked out) is
 * HF's {@code load_balancing_loss_func} within 1e-5.
 */
class MoeRoutingTest {
  static Stream<Arguments> cases() {
    return Stream.of("cpu", "xla:cpu")
        .flatMap(
            d -> Stream.of("qwen3-moe-tiny", "qwen3-moe-routed-tiny").map(m -> Arguments.of(d, m)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void routingAndAuxLossMatchTransformers(String device, String name) {
    HfFixture fx = HfFixture.load(name);
    ModelConfig c = fx.config();
    Qwen3MoeFamily family = (Qwen3MoeFamily) c.architecture();
    MoeFeedForward moe = family.moe();
    List<Integer> routed = IntStream.range(0, c.layers()).filter(family::routed).boxed().toList();
    assertEquals(
        fx.recorded().keySet().stream().filter(k -> k.startsWith("router.")).sorted().toList(),
        routed.stream().map(i -> "router." + i).sorted().toList(),
        name + ": routed blocks");

    GraphBuilder g = new GraphBuilder("moe_routing");
    ModelPrograms.Inputs in = ModelPrograms.declare(g, c, fx.batch(), fx.length(), fx.length());
    DecoderModel m = new DecoderModel(c);
    m.hidden(
        g,
        in.compute(),
        in.ids(),
        in.cos(),
        in.sin(),
        m.dense(ModelPrograms.causal(g, c, in), KvPolicy.SELF));
    List<Node> outs = new ArrayList<>();
    for (Node logits : m.routerLogits()) {
      outs.add(moe.routes(g, logits));
    }
    Node mask = g.reshape(in.mask(), fx.batch() * fx.length());
    outs.add(g.reshape(moe.auxLoss(g, m.routerLogits(), mask), 1));
    try (Device d = Devices.open(device)) {
      List<Tensor> got = HfFixture.run(d, g.build(outs), fx.inputs());
      boolean[] valid = fx.validTokens();
      for (int r = 0; r < routed.size(); r++) {
        Tensor want = fx.get("router." + routed.get(r));
        assertArrayEquals(
            inside(experts((Tensor.I32) want, moe.topK()), valid),
            inside(chosen(got.get(r), moe.experts()), valid),
            name + " block " + routed.get(r) + " routes on " + device);
      }
      RelError.assertClose(name + " aux loss", fx.get("aux_loss"), got.get(routed.size()), 1e-5);
    }
  }

  /** The rows of the tokens inside the batch's rows (padding's routes are not compared). */
  private static int[][] inside(int[][] perToken, boolean[] valid) {
    return IntStream.range(0, perToken.length)
        .filter(t -> valid[t])
        .mapToObj(t -> perToken[t])
        .toArray(int[][]::new);
  }

  /** Each token's experts, sorted: (N, k) indices. */
  private static int[][] experts(Tensor.I32 topK, int k) {
    int n = topK.shape().dim(0);
    int[][] out = new int[n][];
    for (int t = 0; t < n; t++) {
      out[t] = Arrays.copyOfRange(topK.data(), t * k, t * k + k);
      Arrays.sort(out[t]);
    }
    return out;
  }

  /** Each token's experts where the mask (N, E) is 1, ascending. */
  private static int[][] chosen(Tensor mask, int e) {
    Shape s = mask.shape();
    int[][] out = new int[s.dim(0)][];
    for (int t = 0; t < s.dim(0); t++) {
      int row = t;
      out[t] = IntStream.range(0, e).filter(j -> mask.getDouble(row * e + j) > 0.5).toArray();
    }
    return out;
  }
}
