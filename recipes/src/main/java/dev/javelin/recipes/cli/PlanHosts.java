package dev.javelin.recipes.cli;

import dev.javelin.backend.xla.TpuTopology;
import dev.javelin.recipes.config.ChipKeys;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.Settings;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code javelin plan} with {@code trainer.nnodes=H}: the trainer laid over H hosts of a multi-host
 * slice, as one SPMD program over their {@code H x trainer.n_gpus_per_node} chips (how a
 * multi-controller trainer runs, one process per host), samplers on the chips left. Only the plan
 * takes this form: a run with {@code trainer.nnodes} > 1 runs data-parallel ranks, each over its
 * own host's chips, whose gradients meet through the gang's store.
 */
final class PlanHosts {
  /** Chips per host of the slices libtpu names: one host up to 8 chips, else hosts of 4. */
  private static final int MULTI_HOST_CHIPS_PER_HOST = 4;

  private PlanHosts() {}

  /** The recipe as plan compiles it for {@code topology}, its trainer over whole hosts. */
  static RecipeConfig load(
      String recipeArg, List<String> overrides, TpuTopology topology, PrintStream out) {
    List<String> all = new ArrayList<>(overrides);
    Settings raw = Recipes.settings(recipeArg, all);
    int nodes = raw.getInt(ChipKeys.TRAINER_NODES);
    if (nodes <= 1) {
      return Recipes.load(recipeArg, all);
    }
    int perNode = raw.getInt(ChipKeys.TRAINER_CHIPS);
    all.add(ChipKeys.TRAINER_NODES.assign(1));
    int hostChips = chipsPerHost(topology);
    int hosts = topology.chips() / hostChips;
    if (perNode > hostChips || nodes > hosts) {
      throw new ConfigException(
          "recipe key '"
              + ChipKeys.TRAINER_NODES.name()
              + "': "
              + nodes
              + " hosts of "
              + perNode
              + " chips ("
              + ChipKeys.TRAINER_CHIPS.name()
              + ") do not fit "
              + topology.name()
              + ", "
              + hosts
              + " hosts of "
              + hostChips
              + " chips");
    }
    all.add(ChipKeys.TRAINER_CHIPS.assign(nodes * perNode));
    out.printf(
        "plan: trainer over %d of %s's %d hosts (%s x %s = %d chips, one program over all of"
            + " them), samplers on the other chips; compile check only (a run across hosts runs a"
            + " data-parallel rank per host)%n",
        nodes,
        topology.name(),
        hosts,
        ChipKeys.TRAINER_NODES.assign(nodes),
        ChipKeys.TRAINER_CHIPS.assign(perNode),
        nodes * perNode);
    return Recipes.load(recipeArg, all);
  }

  static int chipsPerHost(TpuTopology topology) {
    return topology.chips() <= 8 ? topology.chips() : MULTI_HOST_CHIPS_PER_HOST;
  }
}
