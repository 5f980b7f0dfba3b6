package dev.javelin.recipes.config;

import dev.javelin.grpo.RecipeKeyed;
import java.util.List;

/**
 * {@code trainer.gang_placement}: how the placement group of a trainer gang on a Ray cluster
 * ({@code trainer.ray=cluster}, {@code trainer.nnodes} > 1) lays its ranks, one bundle per rank,
 * out over the nodes; the names are Ray's placement strategies. VeRL has no such key.
 */
public enum GangPlacement implements RecipeKeyed {
  /** One rank per node, as a trainer over the hosts of a TPU slice needs (the default). */
  STRICT_SPREAD,
  /** Ranks on different nodes where the cluster has room, else together. */
  SPREAD,
  /** Ranks on as few nodes as possible: a one-node cluster, tests. */
  PACK;

  /** The recipe spells each as Ray does, in upper case. */
  @Override
  public List<String> keys() {
    return List.of(name());
  }
}
