package dev.javelin.recipes.config;

import dev.javelin.backend.spmd.MeshShape;
import java.util.Set;

/**
 * How many chips the trainer and each sampler get and how they split the model, with VeRL's names:
 * {@code trainer.n_gpus_per_node} is the trainer's chips (as in VeRL's split-placement recipes,
 * where the rollout has chips of its own), {@code actor.fsdp_config.fsdp_size} its FSDP group (-1:
 * all its chips), {@code actor.megatron.tensor_model_parallel_size} its tensor parallelism
 * (Javelin's trainer splits heads and MLP columns the Megatron way, so the key of VeRL's Megatron
 * actor says it), and {@code rollout.tensor_model_parallel_size} the chips of each sampler.
 * Samplers get chips after the trainer's, one disjoint set each ({@link ChipPlan}). {@code
 * trainer.nnodes} above 1 runs that many data-parallel trainer ranks as threads of one JVM on a
 * host device, or that many Ray worker processes on a cluster ({@code trainer.ray=cluster}), placed
 * by {@code trainer.gang_placement}.
 */
public final class ChipKeys {
  private static final Set<String> HOST_DEVICES = Set.of("cpu", "ref");
  static final KeySet KEYS = new KeySet();
  public static final KeySpec TRAINER_CHIPS =
      KEYS.of(
          "trainer.n_gpus_per_node",
          KeyType.INT,
          1,
          "chips of the trainer; each sampler has rollout.tensor_model_parallel_size of its own");
  public static final KeySpec TRAINER_NODES =
      KEYS.of(
          "trainer.nnodes",
          KeyType.INT,
          1,
          "data-parallel trainer ranks, each over trainer.n_gpus_per_node chips of its own; above"
              + " 1 threads of one JVM (trainer.ray=off or local) or Ray worker processes, one per"
              + " host (trainer.ray=cluster)");
  public static final KeySpec GANG_PLACEMENT =
      KEYS.of(
          "trainer.gang_placement",
          KeyType.keysOf(GangPlacement.class),
          GangPlacement.STRICT_SPREAD.key(),
          "Ray placement of the trainer.nnodes ranks on a cluster: STRICT_SPREAD (one per node),"
              + " SPREAD or PACK");
  public static final KeySpec FSDP_SIZE =
      KEYS.of(
          "actor_rollout_ref.actor.fsdp_config.fsdp_size",
          KeyType.INT,
          -1,
          "trainer chips sharing one copy of weights, gradients and AdamW state; -1 = all;"
              + " 1 = data-parallel replicas");
  public static final KeySpec TRAINER_TP =
      KEYS.of(
          "actor_rollout_ref.actor.megatron.tensor_model_parallel_size",
          KeyType.INT,
          1,
          "trainer chips splitting heads and MLP columns (tensor parallelism)");
  public static final KeySpec ROLLOUT_TP =
      KEYS.of(
          "actor_rollout_ref.rollout.tensor_model_parallel_size",
          KeyType.INT,
          1,
          "chips of each sampler, splitting heads and MLP columns");

  private ChipKeys() {}

  /** The chip plan of the recipe, every size checked against the others by key name. */
  public static ChipPlan from(Settings s) {
    int chips = s.positiveInt(TRAINER_CHIPS);
    int ranks = trainerRanks(s);
    int tp = s.positiveInt(TRAINER_TP);
    Checks.require(
        chips % tp == 0,
        TRAINER_TP.name(),
        tp + " must divide the trainer's " + chips + " chips (" + TRAINER_CHIPS.name() + ")");
    int groups = chips / tp;
    int fsdpSize = s.getInt(FSDP_SIZE);
    Checks.require(fsdpSize == -1 || fsdpSize >= 1, FSDP_SIZE.name(), "use -1 (all) or N >= 1");
    int fsdp = fsdpSize == -1 ? groups : fsdpSize;
    Checks.require(
        groups % fsdp == 0,
        FSDP_SIZE.name(),
        fsdp
            + " must divide the trainer's "
            + chips
            + " chips / tensor parallel "
            + tp
            + " = "
            + groups);
    int dp = groups / fsdp;
    Checks.require(
        dp == 1 || fsdp == 1,
        FSDP_SIZE.name(),
        fsdp
            + " over "
            + groups
            + " chip groups makes "
            + dp
            + " FSDP replicas (hybrid sharding), which Javelin does not run: use -1 (FSDP over"
            + " all the trainer's chips) or 1 (data-parallel replicas)");
    int rolloutTp = s.positiveInt(ROLLOUT_TP);
    String device = s.getString(TrainerSection.DEVICE);
    if (HOST_DEVICES.contains(device)) {
      for (KeySpec k : new KeySpec[] {TRAINER_CHIPS, TRAINER_TP, ROLLOUT_TP}) {
        Checks.require(
            s.getInt(k) == 1,
            k.name(),
            "trainer.device="
                + device
                + " runs on one chip: set it to 1, or use an xla:cpu, xla:gpu or tpu device");
      }
    }
    return new ChipPlan(
        device,
        new MeshShape(dp, fsdp, tp),
        rolloutTp,
        s.getInt(TrainerSection.SAMPLERS),
        HOST_DEVICES.contains(device),
        ranks);
  }

  /**
   * {@code trainer.nnodes}: above 1 a gang of data-parallel trainer ranks, threads of this JVM
   * (each on chips of its own) or worker processes on a Ray cluster (each on its host's chips),
   * whose gradients are summed through the gang's store.
   */
  private static int trainerRanks(Settings s) {
    return s.positiveInt(TRAINER_NODES);
  }

  /** {@code trainer.gang_placement}: how a gang's ranks spread over a cluster's nodes. */
  public static GangPlacement gangPlacement(Settings s) {
    return s.getChoice(GANG_PLACEMENT, GangPlacement.class);
  }
}
