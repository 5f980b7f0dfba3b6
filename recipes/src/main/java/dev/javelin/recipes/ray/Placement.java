package dev.javelin.recipes.ray;

import dev.javelin.recipes.config.TrainerSection;
import io.ray.api.PlacementGroups;
import io.ray.api.call.BaseActorCreator;
import io.ray.api.options.PlacementGroupCreationOptions;
import io.ray.api.placementgroup.PlacementGroup;
import io.ray.api.placementgroup.PlacementStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a run's actors go on a cluster: one placement-group bundle per actor (bundle 0 the trainer,
 * 1..N the samplers), each asking for the resources its device needs. Reserving them together means
 * a run either gets all its workers or waits with a clear message, instead of half-starting; PACK
 * (the default) keeps them on as few nodes as possible so weights and rollouts stay node-local.
 *
 * @param group the reserved group; null in local mode, where Ray has no resources to place
 * @param bundles the resources each actor asks for, by bundle: an accelerator per chip it owns
 */
record Placement(PlacementGroup group, List<Map<String, Double>> bundles) {
  /** How long to wait for the cluster to grant the bundles before failing. */
  static final int RESERVE_TIMEOUT_S = 120;

  Placement {
    bundles = List.copyOf(bundles);
  }

  /** No reservation: Ray local mode. */
  static Placement none() {
    return new Placement(null, List.of());
  }

  /**
   * Reserves one bundle per actor for {@code device}, bundle {@code i} with {@code chips.get(i)}
   * chips, with {@code strategy} ({@code javelin.ray.placement} property: PACK, SPREAD,
   * STRICT_PACK, STRICT_SPREAD; default PACK). A bundle lies on one node, so an actor's chips are
   * chips of one host.
   */
  static Placement reserve(List<Integer> chips, String device) {
    int actors = chips.size();
    List<Map<String, Double>> bundles = new ArrayList<>();
    for (int c : chips) {
      bundles.add(resourcesFor(device, c));
    }
    String strategyName = System.getProperty("javelin.ray.placement", "PACK");
    PlacementStrategy strategy;
    try {
      strategy = PlacementStrategy.valueOf(strategyName.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "javelin.ray.placement: unknown strategy '" + strategyName + "'; use PACK or SPREAD", e);
    }
    PlacementGroup group =
        PlacementGroups.createPlacementGroup(
            new PlacementGroupCreationOptions.Builder()
                .setBundles(bundles)
                .setStrategy(strategy)
                .build());
    if (!group.wait(RESERVE_TIMEOUT_S)) {
      PlacementGroups.removePlacementGroup(group.getId());
      throw new IllegalStateException(
          "the Ray cluster did not grant "
              + actors
              + " bundles of "
              + bundles
              + " ("
              + strategy
              + ") within "
              + RESERVE_TIMEOUT_S
              + " s: the run needs one per sampler plus the trainer; start the head with more"
              + " (RAY_NUM_CPUS for tools/setup/ray-cluster.sh) or lower "
              + TrainerSection.SAMPLERS.name());
    }
    return new Placement(group, bundles);
  }

  /**
   * The resources one actor on {@code device} with {@code chips} chips asks for: a CPU always, plus
   * that many of the accelerator an {@code xla:gpu} or {@code tpu} device runs on.
   */
  static Map<String, Double> resourcesFor(String device, int chips) {
    return accelerator(device)
        .map(a -> Map.of("CPU", 1.0, a, (double) chips))
        .orElse(Map.of("CPU", 1.0));
  }

  /** The Ray resource of {@code device}'s chips: {@code GPU}, {@code TPU}, or none. */
  static Optional<String> accelerator(String device) {
    String d = device.toLowerCase(Locale.ROOT);
    if (d.startsWith("xla:gpu") || d.startsWith("xla:cuda")) {
      return Optional.of("GPU");
    }
    if (d.startsWith("tpu") || d.startsWith("xla:tpu")) {
      return Optional.of("TPU");
    }
    return Optional.empty();
  }

  /** Places an actor into bundle {@code bundle}. */
  <C extends BaseActorCreator<C>> C apply(C creator, int bundle) {
    if (group == null) {
      return creator;
    }
    return creator.setResources(bundles.get(bundle)).setPlacementGroup(group, bundle);
  }

  /** Returns the bundles to the cluster. */
  void release() {
    if (group != null) {
      PlacementGroups.removePlacementGroup(group.getId());
    }
  }
}
