package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.MoeFeedForward;
import dev.javelin.backend.model.Qwen3MoeFamily;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.Sharding;
import dev.javelin.backend.testing.ModelInputs;
import dev.javelin.backend.testing.PgLoss;
import dev.javelin.backend.testing.RelError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Qwen3-MoE micro model on four {@code xla:cpu} devices under the product's {@link ShardPlan} for
 * {@code fsdp=4} (each device holds one of the four experts of every routed block, and a quarter of
 * the batch) against the same programs on one device: log-probs, and a fused train step's loss,
 * weights and AdamW moments.
 */
class XlaMoeSpmdTest {
  private static final Mesh FSDP = Mesh.of("fsdp", 4);
  private static final ModelConfig MOE =
      new ModelConfig(
          64,
          32,
          48,
          1,
          4,
          2,
          8,
          10_000,
          1e-6,
          true,
          false,
          16,
          new Qwen3MoeFamily(new MoeFeedForward(4, 2, 16, true), 1, List.of(), 0.001));
  private static final int B = 4;
  private static final int T = 6;
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

  @Test
  void logProbsWithExpertsShardedEqualOneDevice() {
    Program p = ModelPrograms.logProbs(MOE, B, T, MOE.maxPositions());
    assertSameOnFour(p, p.withSharding(ShardPlan.of(FSDP, MOE).program(p, List.of())));
  }

  @Test
  void fusedTrainStepWithExpertsShardedEqualsOneDevice() {
    Program p =
        TrainPrograms.fused(MOE, B, T, MOE.maxPositions(), new PgLoss(), AdamWConfig.defaults());
    List<String> names = WeightSpec.layout(MOE).stream().map(WeightSpec::name).toList();
    ShardPlan plan = ShardPlan.of(FSDP, MOE);
    assertEquals(
        Sharding.split(0, "fsdp"),
        plan.of("model.layers.0.mlp.experts.down_proj", Shape.of(4, 32, 16)),
        "experts split along fsdp");
    assertSameOnFour(
        p, p.withSharding(plan.program(p, ShardPlan.after(3, ShardPlan.updateNames(names)))));
  }

  private static void assertSameOnFour(Program p, Program sharded) {
    List<Tensor> args = ModelInputs.of(MOE, p, T, 0);
    List<Sharding> layout = sharded.sharding().orElseThrow().parameters();
    List<Tensor> one = run(p, args, null);
    List<Tensor> four = run(sharded, args, layout);
    double worst = 0;
    for (int o = 0; o < one.size(); o++) {
      double err = RelError.of(one.get(o), four.get(o), null);
      worst = Math.max(worst, err);
      assertTrue(err <= TOL, p.name() + " output " + o + ": relative error " + err);
    }
    System.out.printf("moe spmd %s: %d outputs, worst rel %.2e%n", p.name(), one.size(), worst);
  }

  private static List<Tensor> run(Program p, List<Tensor> args, List<Sharding> layout) {
    List<DeviceBuffer> in = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      in.add(
          layout == null ? xla.upload(args.get(i)) : xla.upload(args.get(i), FSDP, layout.get(i)));
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
}
