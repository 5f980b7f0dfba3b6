package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.ProgramSharding;
import dev.javelin.backend.spmd.Sharding;
import dev.javelin.backend.stablehlo.StableHloPrinter;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import dev.javelin.backend.testing.RelError;
import dev.javelin.backend.testing.WithProperty;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The micro model's programs on four {@code xla:cpu} devices with FSDP layouts (weights, AdamW
 * moments and the batch split along {@code fsdp}, the hidden states between blocks constrained to
 * the batch split) against the same programs on one device.
 */
class XlaSpmdModelTest {
  private static final Mesh FSDP = Mesh.of("fsdp", 4);
  private static final ModelConfig MICRO =
      new ModelConfig(64, 32, 48, 2, 4, 2, 8, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);
  private static final int B = 4;
  private static final int T = 6;

  /**
   * Measured: log-probs equal, final weights and moments after 3 steps 1.9e-7 (summation order).
   */
  private static final double TOL = 1e-5;

  private static XlaDevice xla;

  @BeforeAll
  static void open() {
    xla = XlaTestFixtures.openFourDevices();
  }

  @AfterAll
  static void close() {
    XlaTestFixtures.closeFourDevices(xla);
  }

  /** FSDP by shape: the first dimension that splits evenly over fsdp (rows, else columns). */
  private static Sharding fsdp(Shape s) {
    for (int d = 0; d < Math.min(s.rank(), 2); d++) {
      if (s.dim(d) % FSDP.size() == 0) {
        return Sharding.split(d, "fsdp");
      }
    }
    return Sharding.replicated();
  }

  private static Program sharded(Program p) {
    return p.withSharding(
        new ProgramSharding(
            FSDP,
            p.parameters().stream().map(n -> fsdp(n.shape())).toList(),
            p.outputs().stream().map(n -> fsdp(n.shape())).toList(),
            "fsdp"));
  }

  @Test
  void logProbsWithShardedWeightsAndBatchEqualOneDevice() {
    Program p = ModelPrograms.logProbs(MICRO, B, T, MICRO.maxPositions());
    List<Tensor> args = ModelInputs.of(MICRO, p, T, 0);
    List<Tensor> one = runOnce(p, args, (i, t) -> xla.upload(t));
    Program s = sharded(p);
    // the hidden states after the embedding and after each of the 2 blocks stay split over fsdp
    String text = StableHloPrinter.print(s);
    assertEquals(3, text.split("stablehlo.custom_call @Sharding\\(", -1).length - 1, text);
    assertTrue(text.contains("mhlo.sharding = \"{devices=[4,1,1]0,1,2,3}\""), "batch over fsdp");
    List<Tensor> four =
        runOnce(s, args, (i, t) -> xla.upload(t, FSDP, s.sharding().get().parameters().get(i)));
    for (int o = 0; o < one.size(); o++) {
      double err = RelError.of(one.get(o), four.get(o), null);
      System.out.printf("spmd logprobs output %d rel %.2e%n", o, err);
      assertTrue(err <= TOL, "output " + o + ": relative error " + err);
    }
  }

  @Test
  void scannedLayersKeepTheBatchSplitInsideTheLoopBody() {
    Program p =
        WithProperty.with(
            "javelin.layers",
            "scanned",
            () -> ModelPrograms.logProbs(MICRO, B, T, MICRO.maxPositions()));
    List<Tensor> args = ModelInputs.of(MICRO, p, T, 0);
    List<Tensor> one = runOnce(p, args, (i, t) -> xla.upload(t));
    Program s = sharded(p);
    String text = StableHloPrinter.print(s);
    // the embedding and the loop's result outside, the carry once more inside the while body
    assertEquals(3, text.split("stablehlo.custom_call @Sharding\\(", -1).length - 1, text);
    assertEquals(1, loopBodiesWithAConstraint(text), text);
    List<Tensor> four =
        runOnce(s, args, (i, t) -> xla.upload(t, FSDP, s.sharding().get().parameters().get(i)));
    for (int o = 0; o < one.size(); o++) {
      double err = RelError.of(one.get(o), four.get(o), null);
      assertTrue(err <= TOL, "output " + o + ": relative error " + err);
    }
  }

  @Test
  void fusedTrainStepsWithShardedWeightsAndAdamWStateEqualOneDevice() {
    trainStepsEqualOneDevice(fusedTrainStep());
  }

  @Test
  void scannedFusedTrainStepsKeepTheSplitInBothLoopsAndEqualOneDevice() {
    Program p = WithProperty.with("javelin.layers", "scanned", XlaSpmdModelTest::fusedTrainStep);
    String text = StableHloPrinter.print(sharded(p));
    // a forward and a backward loop over the layers, each pinning its carry in its body
    assertEquals(2, loopBodiesWithAConstraint(text), text);
    trainStepsEqualOneDevice(p);
  }

  /** Loops (none nested here) whose body, after the condition region, pins a value. */
  private static int loopBodiesWithAConstraint(String text) {
    int found = 0;
    for (int at = text.indexOf("stablehlo.while");
        at >= 0;
        at = text.indexOf("stablehlo.while", at + 1)) {
      int body = text.indexOf("}, {", at);
      int pin = text.indexOf("stablehlo.custom_call @Sharding(", body);
      if (pin > 0 && pin < text.indexOf("}) :", body)) {
        found++;
      }
    }
    return found;
  }

  private static Program fusedTrainStep() {
    return TrainPrograms.fused(
        MICRO, B, T, MICRO.maxPositions(), new PgLoss(), AdamWConfig.defaults());
  }

  private static void trainStepsEqualOneDevice(Program p) {
    List<Tensor> args = ModelInputs.of(MICRO, p, T, 0);
    Program s = sharded(p);
    List<Sharding> layout = s.sharding().get().parameters();
    int steps = 3;
    List<Tensor> one = train(p, args, steps, (i, t) -> xla.upload(t));
    List<Tensor> four = train(s, args, steps, (i, t) -> xla.upload(t, FSDP, layout.get(i)));
    for (int k = 0; k < one.size(); k++) {
      double err = RelError.of(one.get(k), four.get(k), null);
      assertTrue(err <= TOL, "value " + k + " after training: relative error " + err);
    }
    System.out.printf(
        "spmd train: losses %s vs %s; worst final weight/moment rel %.2e%n",
        losses(one, steps), losses(four, steps), worst(one, four, steps));
  }

  private static List<Float> losses(List<Tensor> values, int steps) {
    return values.subList(0, steps).stream().map(t -> ((Tensor.F32) t).data()[0]).toList();
  }

  private static double worst(List<Tensor> a, List<Tensor> b, int from) {
    double w = 0;
    for (int k = from; k < a.size(); k++) {
      w = Math.max(w, RelError.of(a.get(k), b.get(k), null));
    }
    return w;
  }

  private static List<Tensor> runOnce(
      Program p, List<Tensor> args, BiFunction<Integer, Tensor, DeviceBuffer> upload) {
    List<DeviceBuffer> in = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      in.add(upload.apply(i, args.get(i)));
    }
    try (Executable exe = xla.compile(p)) {
      List<DeviceBuffer> out = exe.run(in);
      List<Tensor> host = out.stream().map(DeviceBuffer::toHost).toList();
      out.forEach(DeviceBuffer::close);
      return host;
    } finally {
      in.forEach(DeviceBuffer::close);
    }
  }

  /**
   * {@code steps} fused steps with weights, m and v kept on the device; returns each step's loss,
   * then the final weights, m and v.
   */
  private static List<Tensor> train(
      Program p, List<Tensor> args, int steps, BiFunction<Integer, Tensor, DeviceBuffer> upload) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < p.parameters().size(); i++) {
      index.put(((Op.Parameter) p.parameters().get(i).op()).name(), i);
    }
    List<WeightSpec> weights = WeightSpec.layout(MICRO);
    int n = weights.size();
    List<DeviceBuffer> in = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      in.add(upload.apply(i, args.get(i)));
    }
    List<Tensor> result = new ArrayList<>();
    int stepIdx = index.get(OptimizerPrograms.STEP);
    try (Executable exe = xla.compile(p)) {
      for (int s = 0; s < steps; s++) {
        in.get(stepIdx).close();
        in.set(stepIdx, upload.apply(stepIdx, Tensor.scalar(s + 1)));
        List<DeviceBuffer> out = exe.run(in);
        result.add(out.get(0).toHost());
        List<DeviceBuffer> keep = new ArrayList<>();
        for (int w = 0; w < n; w++) {
          String name = weights.get(w).name();
          int[] targets = {
            index.get(name),
            index.get(OptimizerPrograms.firstMoment(name)),
            index.get(OptimizerPrograms.secondMoment(name))
          };
          for (int k = 0; k < 3; k++) {
            DeviceBuffer fresh = out.get(3 + k * n + w);
            in.get(targets[k]).close();
            in.set(targets[k], fresh);
            keep.add(fresh);
          }
        }
        out.stream().filter(b -> !keep.contains(b)).forEach(DeviceBuffer::close);
      }
      for (Node param : p.parameters()) {
        String name = ((Op.Parameter) param.op()).name();
        if (index.containsKey(OptimizerPrograms.firstMoment(name))) {
          int i = index.get(name);
          result.add(in.get(i).toHost());
          result.add(in.get(index.get(OptimizerPrograms.firstMoment(name))).toHost());
          result.add(in.get(index.get(OptimizerPrograms.secondMoment(name))).toHost());
        }
      }
      return result;
    } finally {
      in.forEach(DeviceBuffer::close);
    }
  }
}
