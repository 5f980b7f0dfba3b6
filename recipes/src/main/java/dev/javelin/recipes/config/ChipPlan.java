package dev.javelin.recipes.config;

import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.backend.xla.ChipSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Which chips each actor of a run owns ({@link ChipKeys}): on one host the trainer takes chips
 * {@code 0..T-1} (rank {@code r} of a gang in this process {@code rT..rT+T-1}) and sampler {@code
 * i} the {@code rolloutTp} chips after the trainer's and the samplers' before it, so no two actors
 * share a chip. A host device ({@code cpu}, {@code ref}) has one chip that everyone uses.
 *
 * @param device {@code trainer.device}, the plugin without chips
 * @param trainer the trainer's mesh
 * @param rolloutTp chips of each sampler
 * @param samplers {@code trainer.samplers}
 * @param host whether the device is a host device without chips
 * @param trainerRanks {@code trainer.nnodes}: the trainer's data-parallel ranks (threads of one
 *     JVM, or worker processes on a Ray cluster) that each hold the model and compute a share of
 *     every optimizer step's micro-batches
 */
public record ChipPlan(
    String device, MeshShape trainer, int rolloutTp, int samplers, boolean host, int trainerRanks) {

  /** A plan whose trainer is one rank. */
  public ChipPlan(String device, MeshShape trainer, int rolloutTp, int samplers, boolean host) {
    this(device, trainer, rolloutTp, samplers, host, 1);
  }

  /** Chips all actors need together on one host (every trainer rank's, then the samplers'). */
  public int totalChips() {
    return trainerRanks * trainer.chips() + samplers * rolloutTp;
  }

  /** The trainer's chips (its first rank's). */
  public List<Integer> trainerChips() {
    return trainerChips(0);
  }

  /**
   * The chips of trainer rank {@code rank} when the ranks share this host: after the ranks before.
   */
  public List<Integer> trainerChips(int rank) {
    return range(rank * trainer.chips(), trainer.chips());
  }

  /** Sampler {@code i}'s chips. */
  public List<Integer> samplerChips(int i) {
    return range(trainerRanks * trainer.chips() + i * rolloutTp, rolloutTp);
  }

  /** The spec the trainer opens in this process: its chips, e.g. {@code tpu@0-3}. */
  public String trainerSpec() {
    return trainerSpec(0);
  }

  /** The spec trainer rank {@code rank} opens when the ranks share this host. */
  public String trainerSpec(int rank) {
    return host ? device : ChipSpec.format(device, trainerChips(rank));
  }

  /** The spec sampler {@code i} opens in this process, e.g. {@code tpu@4-5}. */
  public String samplerSpec(int i) {
    return host ? device : ChipSpec.format(device, samplerChips(i));
  }

  /**
   * Tensor parallelism splits attention heads, key/value heads and MLP columns: each must divide by
   * the trainer's and the samplers' tp (one line naming the key otherwise).
   */
  public void checkModel(ModelConfig config) {
    checkTp(ChipKeys.TRAINER_TP, trainer.tp(), config);
    checkTp(ChipKeys.ROLLOUT_TP, rolloutTp, config);
  }

  /** This host's {@code available} chips must hold every actor's. */
  public void checkHost(int available) {
    if (!host && totalChips() > available) {
      throw new ConfigException(
          "recipe key '"
              + ChipKeys.TRAINER_CHIPS.name()
              + "': the trainer's "
              + trainerRanks * trainer.chips()
              + " chips + "
              + samplers
              + " samplers × "
              + rolloutTp
              + " ("
              + ChipKeys.ROLLOUT_TP.name()
              + ") = "
              + totalChips()
              + " chips, but this host has "
              + available
              + " "
              + device
              + " chips; lower them or trainer.samplers");
    }
  }

  private static void checkTp(KeySpec key, int tp, ModelConfig c) {
    int[] sizes = {c.heads(), c.kvHeads(), c.intermediate()};
    String[] names = {"attention heads", "key/value heads", "MLP intermediate size"};
    for (int k = 0; k < sizes.length; k++) {
      Checks.require(
          sizes[k] % tp == 0,
          key.name(),
          tp + " must divide the model's " + names[k] + " (" + sizes[k] + ")");
    }
  }

  private static List<Integer> range(int from, int count) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(from + i);
    }
    return ids;
  }
}
