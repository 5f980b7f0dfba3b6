package dev.javelin.backend.program;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.LayerLoop;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.runtime.ActorPrograms;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.backend.spmd.ProgramSharding;
import dev.javelin.backend.spmd.Sharding;
import dev.javelin.backend.testing.PgLoss;
import dev.javelin.backend.testing.WithProperty;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Layouts of weights, optimizer state, batches and caches on FSDP and FSDP x TP meshes. */
class ShardPlanTest {
  // vocab 64, hidden 32, MLP 48, 2 layers, 4 heads, 2 kv heads of 8, untied, qkv bias
  private static final ModelConfig MICRO =
      new ModelConfig(64, 32, 48, 2, 4, 2, 8, 10_000, 1e-6, false, true, 16, LlamaFamily.QWEN2);
  private static final String Q = WeightSpec.layer(0, "self_attn.q_proj.weight");
  private static final String QB = WeightSpec.layer(0, "self_attn.q_proj.bias");
  private static final String O = WeightSpec.layer(0, "self_attn.o_proj.weight");
  private static final String DOWN = WeightSpec.layer(1, "mlp.down_proj.weight");
  private static final String UP = WeightSpec.layer(1, "mlp.up_proj.weight");
  private static final String NORM = WeightSpec.layer(0, "input_layernorm.weight");

  private static Sharding weight(ShardPlan plan, String name) {
    Shape shape =
        WeightSpec.layout(MICRO).stream()
            .filter(s -> s.name().equals(name))
            .findFirst()
            .orElseThrow()
            .shape();
    return plan.of(name, shape);
  }

  /**
   * A loop's stacked batch-major values lie split on their batch dimension: a scanned train step's
   * saved layer inputs (L, B, T, D) leave the split forward and enter its backward split on B, so
   * each chip holds its own rows of every layer rather than whole layers it must gather.
   */
  @Test
  void stackedActivationsLieSplitOnTheirBatchDimension() {
    ShardPlan plan = ShardPlan.of(Mesh.of("fsdp", 4), MICRO);
    Shape saved = Shape.of(2, 8, 16, 32); // (L, B, T, D)
    Sharding rows = Sharding.split(1, "fsdp");
    assertEquals(rows, plan.of(ShardPlan.STACKED_ACTIVATIONS, saved));
    assertEquals(
        Sharding.replicated(), plan.of(ShardPlan.STACKED_ACTIVATIONS, Shape.of(2, 6, 16, 32)));
    List<ActorPrograms.Planned> programs =
        WithProperty.with(
            LayerLoop.PROPERTY,
            "scanned",
            () ->
                ActorPrograms.trainer(
                    MICRO,
                    new MeshShape(1, 4, 1),
                    8,
                    16,
                    Remat.BLOCKS,
                    DType.F32,
                    AdamWConfig.defaults()));
    Program fwd = planned(programs, "train fwd");
    Program bwd = planned(programs, "train bwd");
    List<Sharding> outs = fwd.sharding().orElseThrow().outputs();
    int stacked = 0;
    for (int i = 0; i < fwd.outputs().size(); i++) {
      if (fwd.outputs().get(i).shape().equals(saved)) {
        assertEquals(rows, outs.get(i), "forward result " + i);
        stacked++;
      }
    }
    for (int i = 0; i < bwd.parameters().size(); i++) {
      if (bwd.parameters().get(i).shape().equals(saved)) {
        assertEquals(rows, bwd.sharding().orElseThrow().parameters().get(i), "backward arg " + i);
        stacked++;
      }
    }
    assertEquals(2, stacked, "the saved carries, out of the forward and into the backward");
  }

  private static Program planned(List<ActorPrograms.Planned> programs, String label) {
    return programs.stream()
        .filter(p -> p.label().equals(label))
        .findFirst()
        .orElseThrow()
        .program();
  }

  @Test
  void fsdpSplitsEveryWeightOnItsFirstEvenDimension() {
    ShardPlan plan = ShardPlan.of(Mesh.of("fsdp", 4), MICRO);
    assertEquals(Sharding.split(0, "fsdp"), weight(plan, WeightSpec.EMBED)); // (64, 32)
    assertEquals(Sharding.split(0, "fsdp"), weight(plan, Q)); // (32, 32)
    assertEquals(Sharding.split(0, "fsdp"), weight(plan, NORM)); // (32)
    // moments, gradients and sums like the weight
    for (String state : List.of("m.", "v.", "grad.", "acc.")) {
      assertEquals(weight(plan, Q), plan.of(state + Q, Shape.of(32, 32)), state);
    }
    // over 3: the first dimension that divides, else replicated
    ShardPlan odd = ShardPlan.of(Mesh.of("fsdp", 3), MICRO);
    assertEquals(Sharding.split(0, "fsdp"), weight(odd, UP)); // (48, 32)
    assertEquals(Sharding.split(1, "fsdp"), weight(odd, DOWN)); // (32, 48)
    assertEquals(Sharding.replicated(), weight(odd, WeightSpec.EMBED)); // (64, 32)
  }

  @Test
  void tensorParallelSplitsColumnsAndRowsAndCombinesWithFsdp() {
    ShardPlan plan = ShardPlan.of(Mesh.parse("fsdp=2,tp=2"), MICRO);
    assertEquals(Sharding.split(0, "tp").and(1, "fsdp"), weight(plan, Q));
    assertEquals(Sharding.split(0, "tp"), weight(plan, QB)); // one dimension, taken by tp
    assertEquals(Sharding.split(1, "tp").and(0, "fsdp"), weight(plan, O));
    assertEquals(Sharding.split(1, "tp").and(0, "fsdp"), weight(plan, DOWN));
    assertEquals(Sharding.split(0, "tp").and(1, "fsdp"), weight(plan, UP));
    // the embedding and the head split their vocabulary rows over tp; norms follow fsdp only
    assertEquals(Sharding.split(0, "tp").and(1, "fsdp"), weight(plan, WeightSpec.EMBED));
    assertEquals(Sharding.split(0, "tp").and(1, "fsdp"), weight(plan, WeightSpec.LM_HEAD));
    assertEquals(Sharding.split(0, "fsdp"), weight(plan, NORM));

    ShardPlan tpOnly = ShardPlan.of(Mesh.of("tp", 2), MICRO);
    assertEquals(Sharding.split(0, "tp"), weight(tpOnly, Q));
    assertEquals(Sharding.split(0, "tp"), weight(tpOnly, WeightSpec.EMBED));
    assertEquals(Sharding.replicated(), weight(tpOnly, NORM));
    // a vocabulary tp does not divide stays whole (a 65-row embedding on 2 chips)
    ModelConfig odd =
        new ModelConfig(65, 32, 48, 2, 4, 2, 8, 10_000, 1e-6, false, true, 16, LlamaFamily.QWEN2);
    assertEquals(
        Sharding.replicated(),
        ShardPlan.of(Mesh.of("tp", 2), odd).of(WeightSpec.EMBED, Shape.of(65, 32)));
    assertEquals(Sharding.replicated(), tpOnly.of(ModelPrograms.INPUT_IDS, Shape.of(4, 6)));
    // a tied table (looked up and multiplied) stays whole over tp; fsdp still splits it
    ModelConfig tied =
        new ModelConfig(64, 32, 48, 2, 4, 2, 8, 10_000, 1e-6, true, true, 16, LlamaFamily.QWEN2);
    assertEquals(
        Sharding.replicated(),
        ShardPlan.of(Mesh.of("tp", 2), tied).of(WeightSpec.EMBED, Shape.of(64, 32)));
    assertEquals(
        Sharding.split(0, "fsdp"),
        ShardPlan.of(Mesh.parse("fsdp=2,tp=2"), tied).of(WeightSpec.EMBED, Shape.of(64, 32)));
  }

  @Test
  void batchCachesAndScalars() {
    ShardPlan plan = ShardPlan.of(Mesh.parse("fsdp=2,tp=2"), MICRO);
    assertEquals(Sharding.split(0, "fsdp"), plan.of(ModelPrograms.INPUT_IDS, Shape.of(4, 6)));
    assertEquals(Sharding.split(0, "fsdp"), plan.of("advantages", Shape.of(4, 5)));
    assertEquals(Sharding.replicated(), plan.of(ModelPrograms.INPUT_IDS, Shape.of(3, 6)));
    assertEquals(Sharding.replicated(), plan.of(ModelPrograms.ROPE_COS, Shape.of(16, 4)));
    assertEquals(Sharding.replicated(), plan.of(ModelPrograms.TEMPERATURE, Shape.scalar()));
    assertEquals(Sharding.replicated(), plan.of(OptimizerPrograms.LR, Shape.scalar()));
    Shape cache = Shape.of(4, 2, 16, 8);
    assertEquals(Sharding.split(0, "fsdp").and(1, "tp"), plan.of(ModelPrograms.cacheKey(1), cache));
    assertEquals(
        Sharding.split(1, "tp"), plan.of(SlotPrograms.freshValue(0), Shape.of(1, 2, 16, 8)));
    ShardPlan dpTp = ShardPlan.of(Mesh.parse("dp=2,tp=2"), MICRO);
    assertEquals(Sharding.split(0, "dp").and(1, "tp"), dpTp.of(ModelPrograms.cacheValue(0), cache));
    assertEquals(Sharding.split(0, "tp"), weight(dpTp, WeightSpec.EMBED));
  }

  @Test
  void programOutputsLieLikeWhatTheyAre() {
    ShardPlan plan = ShardPlan.of(Mesh.parse("fsdp=2,tp=2"), MICRO);
    Program fused =
        TrainPrograms.fused(
            MICRO, 4, 6, MICRO.maxPositions(), new PgLoss(), AdamWConfig.defaults());
    List<String> names = WeightSpec.layout(MICRO).stream().map(WeightSpec::name).toList();
    ProgramSharding s = plan.program(fused, ShardPlan.after(3, ShardPlan.updateNames(names)));
    int n = names.size();
    assertEquals(Sharding.replicated(), s.outputs().get(0)); // loss
    for (int i = 0; i < n; i++) {
      Sharding w = weight(plan, names.get(i));
      assertEquals(w, s.outputs().get(3 + i));
      assertEquals(w, s.outputs().get(3 + n + i));
      assertEquals(w, s.outputs().get(3 + 2 * n + i));
    }
    fused.withSharding(s); // checks every layout against its shape
    Program decode = SlotPrograms.decode(MICRO, 4, 16, MICRO.maxPositions());
    ProgramSharding d = plan.program(decode, ShardPlan.after(1, ShardPlan.cacheNames(MICRO)));
    assertEquals(Sharding.split(0, "fsdp"), d.outputs().get(0)); // logits (B, V)
    assertEquals(Sharding.split(0, "fsdp").and(1, "tp"), d.outputs().get(1));
    decode.withSharding(d);
  }

  @Test
  void badMeshesAreNamed() {
    ModelConfig threeHeads =
        new ModelConfig(64, 24, 48, 1, 3, 3, 8, 10_000, 1e-6, true, false, 16, LlamaFamily.LLAMA);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ShardPlan.of(Mesh.of("tp", 2), threeHeads));
    assertTrue(e.getMessage().contains("attention heads (3)"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShardPlan.of(Mesh.of("tp", 4), MICRO));
    assertTrue(e.getMessage().contains("key/value heads (2)"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ShardPlan.of(Mesh.of("pp", 2), MICRO));
    assertTrue(e.getMessage().contains("'pp'"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> ShardPlan.of(Mesh.parse("dp=2,fsdp=2"), MICRO));
    assertTrue(e.getMessage().contains("both dp and fsdp"), e.getMessage());
  }
}
