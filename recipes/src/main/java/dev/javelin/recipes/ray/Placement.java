package dev.javelin.recipes.ray;

import io.ray.api.PlacementGroups;
import io.ray.api.call.BaseActorCreator;
import io.ray.api.options.PlacementGroupCreationOptions;
import io.ray.api.placementgroup.PlacementGroup;
import io.ray.api.placementgroup.PlacementStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a run's actors go on a cluster: one placement-group bundle per actor (bundle 0 the trainer,
 * 1..N the samplers), each asking for the resources its device needs. Reserving them together means
 * a run either gets all its workers or waits with a clear message, instead of half-starting; PACK
 * (the default) keeps them on as few nodes as possible so weights and rollouts stay node-local.
 *
 * @param group the reserved group; null in local mode, where Ray has no resources to place
 * @param perActor the resources each actor asks for
 */
record Placement(PlacementGroup group, Map<String, Double> perActor) {
  /** How long to wait for the cluster to grant the bundles before failing. */
  static final int RESERVE_TIMEOUT_S = 120;

  Placement {
    perActor = Map.copyOf(perActor);
  }

  /** No reservation: Ray local mode. */
  static Placement none() {
    return new Placement(null, Map.of());
  }

  /**
   * Reserves {@code actors} bundles for {@code device} with {@code strategy} ({@code
   * javelin.ray.placement} property: PACK, SPREAD, STRICT_PACK, STRICT_SPREAD; default PACK).
   */
  static Placement reserve(int actors, String device) {
    Map<String, Double> each = resourcesFor(device);
    List<Map<String, Double>> bundles = new ArrayList<>();
    for (int i = 0; i < actors; i++) {
      bundles.add(each);
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
              + each
              + " ("
              + strategy
              + ") within "
              + RESERVE_TIMEOUT_S
              + " s: the run needs one per sampler plus the trainer; start the head with more"
              + " (RAY_NUM_CPUS for tools/setup/ray-cluster.sh) or lower trainer.samplers");
    }
    return new Placement(group, each);
  }

  /**
   * The resources one actor on {@code device} asks for: a CPU always, plus the accelerator an
   * {@code xla:gpu} or {@code tpu} device runs on.
   */
  static Map<String, Double> resourcesFor(String device) {
    String d = device.toLowerCase(Locale.ROOT);
    if (d.startsWith("xla:gpu") || d.startsWith("xla:cuda")) {
      return Map.of("CPU", 1.0, "GPU", 1.0);
    }
    if (d.startsWith("tpu") || d.startsWith("xla:tpu")) {
      return Map.of("CPU", 1.0, "TPU", 1.0);
    }
    return Map.of("CPU", 1.0);
  }

  /** Places an actor into bundle {@code bundle}. */
  <C extends BaseActorCreator<C>> C apply(C creator, int bundle) {
    if (group == null) {
      return creator;
    }
    return creator.setResources(perActor).setPlacementGroup(group, bundle);
  }

  /** Returns the bundles to the cluster. */
  void release() {
    if (group != null) {
      PlacementGroups.removePlacementGroup(group.getId());
    }
  }
}
