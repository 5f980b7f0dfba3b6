package dev.javelin.backend.program;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.HeadLogits;
import dev.javelin.backend.batch.HeadTiles;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.DecoderModel;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.KvPolicy;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.RopeTable;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Whole-model finite-difference check in f64 on the reference device: the autodiff gradient of a
 * masked log-prob + entropy loss matches central differences for sampled elements of every weight.
 */
class ModelGradCheckTest {
  private static final ModelConfig TINY =
      new ModelConfig(13, 8, 12, 2, 4, 2, 2, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);
  private static final int B = 2;
  private static final int T = 5;
  private static final double EPS = 1e-5;

  @Test
  void modelGradientMatchesFiniteDifferences() {
    for (ModelConfig c : List.of(TINY, untiedNoBias())) {
      check(c);
    }
  }

  private static ModelConfig untiedNoBias() {
    return new ModelConfig(13, 8, 12, 1, 2, 1, 4, 500, 1e-5, false, false, 16, LlamaFamily.LLAMA);
  }

  private static void check(ModelConfig c) {
    GraphBuilder g = new GraphBuilder("gradcheck");
    ModelPrograms.Inputs in = ModelPrograms.declare(g, c, B, T, T, DType.F64);
    Node temp = g.parameter(ModelPrograms.TEMPERATURE, DType.F64, Shape.scalar());
    Node resp = g.parameter("response_mask", DType.F64, Shape.of(B, T - 1));
    TokenStats st = TokenStats.of(g, ModelPrograms.forwardLogits(g, c, in), in.ids(), temp);
    Node perToken = g.sub(g.mul(st.entropy(), g.full(st.entropy(), 0.3)), st.logp());
    Node loss = g.reduceSum(g.mul(resp, perToken), 0, 1);
    List<Node> weights = in.weights().all();
    List<Node> outs = new ArrayList<>();
    outs.add(loss);
    outs.addAll(Autodiff.gradient(g, loss, weights));
    Program p = g.build(outs);
    Random rng = new Random(42);
    Map<String, Tensor> args = inputs(c, rng);
    try (Device ref = Devices.open("ref")) {
      Executable exe = ref.compile(p);
      List<Tensor> base = run(ref, exe, p, args);
      List<String> names = in.weights().names();
      for (int w = 0; w < names.size(); w++) {
        Tensor.F64 weight = (Tensor.F64) args.get(names.get(w));
        for (int k = 0; k < 3; k++) {
          int idx = rng.nextInt(weight.data().length);
          double analytic = base.get(w + 1).getDouble(idx);
          double numeric = centralDifference(ref, exe, p, args, weight, names.get(w), idx);
          double err = Math.abs(analytic - numeric) / Math.max(1e-3, Math.abs(numeric));
          assertTrue(
              err < 1e-5,
              names.get(w) + "[" + idx + "]: autodiff " + analytic + " vs FD " + numeric);
        }
      }
    }
  }

  /**
   * The tiled LM head and per-block recomputation change how gradients are computed, not what they
   * are: in f64 on the reference device, every weight's gradient under {@link Remat#BLOCKS} with a
   * head of 1- and 2-column chunks, of vocabulary blocks (an uneven last block included), and of
   * both at once equals the untiled {@link Remat#NONE} one.
   */
  @Test
  void chunkedHeadAndBlockRecomputationGiveTheSameGradients() {
    for (ModelConfig c : List.of(TINY, untiedNoBias())) {
      Map<String, Tensor> args = inputs(c, new Random(7));
      int v = c.vocabSize();
      List<Tensor> want = gradients(c, args, new HeadTiles(T, v), Remat.NONE);
      List<HeadTiles> tilings =
          List.of(
              new HeadTiles(1, v),
              new HeadTiles(2, v),
              new HeadTiles(T, v / 2),
              new HeadTiles(T, v / 3 + 1),
              new HeadTiles(2, v / 4));
      for (HeadTiles tiles : tilings) {
        for (Remat remat : List.of(Remat.ELEMENTWISE, Remat.BLOCKS)) {
          List<Tensor> got = gradients(c, args, tiles, remat);
          for (int i = 0; i < want.size(); i++) {
            RelError.assertClose(
                remat + ", " + tiles + ", output " + i, want.get(i), got.get(i), 1e-12);
          }
        }
      }
    }
  }

  /**
   * The head as one loop over vocabulary blocks (what scanned programs use) gives the untiled
   * head's loss and gradients, the head's rows' gradient written block by block, under every
   * rematerialisation policy, its logits recomputed or kept for the gradient: tied and untied
   * heads, 2, 3 and 4 blocks of a 12-entry vocabulary.
   */
  @Test
  void vocabularyLoopGivesTheSameGradients() {
    ModelConfig tied =
        new ModelConfig(12, 8, 12, 2, 4, 2, 2, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);
    ModelConfig untied =
        new ModelConfig(12, 8, 12, 1, 2, 1, 4, 500, 1e-5, false, false, 16, LlamaFamily.LLAMA);
    for (ModelConfig c : List.of(tied, untied)) {
      Map<String, Tensor> args = inputs(c, new Random(11));
      List<Tensor> want = gradients(c, args, new HeadTiles(T, 12), Remat.NONE);
      for (int blocks : new int[] {2, 3, 4}) {
        for (Remat remat : Remat.values()) {
          for (HeadLogits keep : HeadLogits.values()) {
            List<Tensor> got =
                gradients(
                    c,
                    args,
                    remat,
                    (g, m, in, h, temp) ->
                        TokenStats.ofHiddenLooped(
                            g,
                            h,
                            m.headRows(in.weights()),
                            m::logitsOfRows,
                            in.ids(),
                            temp,
                            blocks,
                            keep));
            for (int i = 0; i < want.size(); i++) {
              String what = remat + ", " + keep + ", " + blocks + " blocks, output " + i;
              RelError.assertClose(what, want.get(i), got.get(i), 1e-12);
            }
          }
        }
      }
    }
  }

  /** How a gradient check computes the token stats from the final hidden states. */
  @FunctionalInterface
  private interface HeadForm {
    TokenStats stats(
        GraphBuilder g, DecoderModel m, ModelPrograms.Inputs in, Node hidden, Node temperature);
  }

  /** [loss, ∂loss/∂w...] with the head in {@code tiles} under {@code remat}. */
  private static List<Tensor> gradients(
      ModelConfig c, Map<String, Tensor> args, HeadTiles tiles, Remat remat) {
    return gradients(
        c,
        args,
        remat,
        (g, m, in, h, temp) ->
            TokenStats.ofHidden(
                g,
                h,
                (x, from, to) -> m.logits(g, in.weights(), x, from, to),
                c.vocabSize(),
                in.ids(),
                temp,
                tiles));
  }

  private static List<Tensor> gradients(
      ModelConfig c, Map<String, Tensor> args, Remat remat, HeadForm head) {
    GraphBuilder g = new GraphBuilder("chunks");
    ModelPrograms.Inputs in = ModelPrograms.declare(g, c, B, T, T, DType.F64);
    Node temp = g.parameter(ModelPrograms.TEMPERATURE, DType.F64, Shape.scalar());
    Node resp = g.parameter("response_mask", DType.F64, Shape.of(B, T - 1));
    DecoderModel m = new DecoderModel(c);
    IntFunction<Node> bias = ModelPrograms.causal(g, c, in);
    Node h = m.hidden(g, in.weights(), in.ids(), in.cos(), in.sin(), m.dense(bias, KvPolicy.SELF));
    TokenStats st = head.stats(g, m, in, h, temp);
    Node perToken = g.sub(g.mul(st.entropy(), g.full(st.entropy(), 0.3)), st.logp());
    Node loss = g.reduceSum(g.mul(resp, perToken), 0, 1);
    List<Node> outs = new ArrayList<>();
    outs.add(loss);
    outs.addAll(Autodiff.gradient(g, loss, in.weights().all(), remat));
    Program p = g.build(outs);
    try (Device ref = Devices.open("ref")) {
      return run(ref, ref.compile(p), p, args);
    }
  }

  private static double centralDifference(
      Device ref,
      Executable exe,
      Program p,
      Map<String, Tensor> args,
      Tensor.F64 w,
      String name,
      int idx) {
    double orig = w.data()[idx];
    double[] f = new double[2];
    for (int s = 0; s < 2; s++) {
      double[] copy = w.data().clone();
      copy[idx] = orig + (s == 0 ? EPS : -EPS);
      Map<String, Tensor> moved = new HashMap<>(args);
      moved.put(name, new Tensor.F64(w.shape(), copy));
      f[s] = run(ref, exe, p, moved).get(0).getDouble(0);
    }
    return (f[0] - f[1]) / (2 * EPS);
  }

  private static List<Tensor> run(Device ref, Executable exe, Program p, Map<String, Tensor> args) {
    Map<String, DeviceBuffer> bufs = new HashMap<>();
    args.forEach((k, v) -> bufs.put(k, ref.upload(v)));
    List<Tensor> out = new ArrayList<>();
    for (DeviceBuffer b : exe.run(Bindings.bind(p, bufs))) {
      out.add(b.toHost());
    }
    return out;
  }

  private static Map<String, Tensor> inputs(ModelConfig c, Random rng) {
    Map<String, Tensor> args = new HashMap<>();
    for (WeightSpec s : WeightSpec.layout(c)) {
      boolean norm = s.name().endsWith("norm.weight");
      args.put(
          s.name(),
          Tensors.uniform(rng, DType.F64, s.shape(), norm ? 0.5 : -0.6, norm ? 1.5 : 0.6));
    }
    args.put(ModelPrograms.INPUT_IDS, Tensors.randomInts(rng, c.vocabSize(), B, T));
    args.put(ModelPrograms.POSITIONS, HfFixture.positions(B, T));
    double[] mask = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    args.put(ModelPrograms.ATTENTION_MASK, new Tensor.F64(Shape.of(B, T), mask));
    double[] resp = {0, 1, 1, 1, 0, 1, 1, 0};
    args.put("response_mask", new Tensor.F64(Shape.of(B, T - 1), resp));
    args.put(ModelPrograms.TEMPERATURE, new Tensor.F64(Shape.scalar(), new double[] {0.8}));
    RopeTable rope = RopeTable.compute(c, T);
    args.put(ModelPrograms.ROPE_COS, Tensors.convert(rope.cos(), DType.F64));
    args.put(ModelPrograms.ROPE_SIN, Tensors.convert(rope.sin(), DType.F64));
    return args;
  }
}
