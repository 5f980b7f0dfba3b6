package dev.javelin.recipes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.recipes.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chip keys: sizes, meshes, disjoint chip sets, and one line per bad combination. */
class ChipKeysTest {
  private static final String TP = "actor_rollout_ref.rollout.tensor_model_parallel_size";
  private static final String FSDP = "actor_rollout_ref.actor.fsdp_config.fsdp_size";
  private static final String MEGATRON_TP =
      "actor_rollout_ref.actor.megatron.tensor_model_parallel_size";

  private static ChipPlan plan(String... overrides) {
    return ChipKeys.from(Recipes.load("recipes/arith-grpo.yaml", List.of(overrides)).settings());
  }

  private static String refused(String... overrides) {
    return assertThrows(ConfigException.class, () -> plan(overrides)).getMessage();
  }

  @Test
  void theDefaultIsOneChipEach() {
    ChipPlan p = plan();
    assertEquals(MeshShape.ONE, p.trainer());
    assertEquals(1, p.rolloutTp());
    assertEquals("cpu", p.trainerSpec(), "a host device has no chips to name");
    assertEquals("cpu", p.samplerSpec(1));
  }

  @Test
  void aTpuHostIsSplitTrainerFirstThenEachSampler() {
    ChipPlan p =
        plan("trainer.device=tpu", "trainer.n_gpus_per_node=4", "trainer.samplers=2", TP + "=2");
    assertEquals(new MeshShape(1, 4, 1), p.trainer(), "fsdp_size -1: FSDP over all four");
    assertEquals("tpu@0-3", p.trainerSpec());
    assertEquals("tpu@4-5", p.samplerSpec(0));
    assertEquals("tpu@6-7", p.samplerSpec(1));
    assertEquals(8, p.totalChips());
    p.checkHost(8);
    String e = assertThrows(ConfigException.class, () -> p.checkHost(4)).getMessage();
    assertTrue(e.contains("= 8 chips, but this host has 4 tpu chips"), e);
  }

  /** Ranks sharing one host each take chips of their own, before the samplers'. */
  @Test
  void trainerRanksOnOneHostTakeChipsOfTheirOwn() {
    ChipPlan p =
        plan(
            "trainer.device=tpu",
            "trainer.nnodes=2",
            "trainer.n_gpus_per_node=2",
            "trainer.samplers=2",
            TP + "=2");
    assertEquals("tpu@0-1", p.trainerSpec(0));
    assertEquals("tpu@2-3", p.trainerSpec(1));
    assertEquals("tpu@4-5", p.samplerSpec(0));
    assertEquals("tpu@6-7", p.samplerSpec(1));
    assertEquals(8, p.totalChips());
    String e = assertThrows(ConfigException.class, () -> p.checkHost(6)).getMessage();
    assertTrue(e.contains("the trainer's 4 chips + 2 samplers"), e);
  }

  @Test
  void fsdpAndTensorParallelSizesShapeTheTrainerMesh() {
    assertEquals(
        new MeshShape(1, 2, 2),
        plan("trainer.device=xla:cpu", "trainer.n_gpus_per_node=4", MEGATRON_TP + "=2").trainer());
    assertEquals(
        new MeshShape(4, 1, 1),
        plan("trainer.device=xla:cpu", "trainer.n_gpus_per_node=4", FSDP + "=1").trainer());
  }

  @Test
  void badSizesAreOneLineNamingTheKey() {
    String hybrid = refused("trainer.device=tpu", "trainer.n_gpus_per_node=4", FSDP + "=2");
    assertTrue(hybrid.startsWith("recipe key '" + FSDP + "'") && hybrid.contains("hybrid"), hybrid);
    String divide = refused("trainer.device=tpu", "trainer.n_gpus_per_node=4", FSDP + "=3");
    assertTrue(divide.contains("3 must divide the trainer's 4 chips"), divide);
    String tp = refused("trainer.device=tpu", "trainer.n_gpus_per_node=4", MEGATRON_TP + "=3");
    assertTrue(tp.startsWith("recipe key '" + MEGATRON_TP + "'"), tp);
    String cpu = refused(TP + "=2");
    assertTrue(cpu.startsWith("recipe key '" + TP + "'") && cpu.contains("one chip"), cpu);
    String chipsInSpec = refused("trainer.device=tpu@0-3");
    assertTrue(chipsInSpec.contains("Javelin assigns the chips"), chipsInSpec);
  }

  @Test
  void severalTrainerRanksRunAsThreadsOrClusterWorkers() {
    assertEquals(1, plan().trainerRanks());
    assertEquals(3, plan("trainer.nnodes=3", "trainer.ray=off").trainerRanks());
    assertEquals(2, plan("trainer.nnodes=2", "trainer.ray=local").trainerRanks());
    assertEquals(2, plan("trainer.nnodes=2", "trainer.ray=cluster").trainerRanks());
    assertEquals(2, plan("trainer.nnodes=2", "trainer.device=tpu").trainerRanks());
    String zero = refused("trainer.nnodes=0");
    assertTrue(zero.startsWith("recipe key 'trainer.nnodes'"), zero);
  }

  @Test
  void aGangIsSpreadOneRankPerNodeUnlessTheRecipeSaysOtherwise() {
    assertEquals(GangPlacement.STRICT_SPREAD, placement());
    assertEquals(GangPlacement.PACK, placement("trainer.gang_placement=PACK"));
    assertEquals(GangPlacement.SPREAD, placement("trainer.gang_placement=SPREAD"));
    String bad =
        assertThrows(ConfigException.class, () -> placement("trainer.gang_placement=ANYWHERE"))
            .getMessage();
    assertTrue(bad.contains("trainer.gang_placement"), bad);
  }

  private static GangPlacement placement(String... overrides) {
    return ChipKeys.gangPlacement(
        Recipes.load("recipes/arith-grpo.yaml", List.of(overrides)).settings());
  }

  @Test
  void tensorParallelMustSplitTheHeads() {
    ChipPlan p = plan("trainer.device=tpu", TP + "=4");
    // 6 heads, 2 key/value heads: tp 4 divides neither
    ModelConfig c =
        new ModelConfig(64, 48, 64, 2, 6, 2, 8, 10000, 1e-6, true, false, 32, LlamaFamily.LLAMA);
    String e = assertThrows(ConfigException.class, () -> p.checkModel(c)).getMessage();
    assertTrue(e.startsWith("recipe key '" + TP + "'") && e.contains("attention heads (6)"), e);
  }

  @Test
  void theReadmeListsEveryChipKey() throws java.io.IOException {
    String readme =
        java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md").toAbsolutePath());
    for (KeySpec k :
        List.of(
            ChipKeys.TRAINER_CHIPS,
            ChipKeys.TRAINER_NODES,
            ChipKeys.FSDP_SIZE,
            ChipKeys.TRAINER_TP,
            ChipKeys.ROLLOUT_TP)) {
      assertTrue(readme.contains("`" + k.name() + "`"), "README.md lists " + k.name());
    }
  }

  @Test
  void theCommandLineExitsWithTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {"run", "recipes/arith-grpo.yaml", TP + "=2"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    String message = err.toString(StandardCharsets.UTF_8).strip();
    assertEquals(1, message.lines().count(), message);
    assertTrue(message.contains(TP), message);
  }
}
