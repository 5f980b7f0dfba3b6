package dev.javelin.recipes.ray;

import dev.javelin.recipes.config.ChipKeys;
import dev.javelin.recipes.config.GangPlacement;
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
 * (the default) keeps them on as few nodes as possible so weights and rollouts stay node-local. A
 * trainer gang ({@code trainer.nnodes} > 1) has a group of its own, one bundle per rank placed by
 * {@code trainer.gang_placement}, and the run's group then holds the samplers alone (bundles
 * 0..N-1).
 *
 * @param group the reserved group; null in local mode, where Ray has no resources to place
 * @param bundles the resources each actor asks for, by bundle: an accelerator per chip it owns
 * @param firstSampler the bundle of sampler 0
 */
record Placement(PlacementGroup group, List<Map<String, Double>> bundles, int firstSampler) {
  /**
   * How long to wait for the cluster to grant the bundles before failing (the {@code
   * javelin.ray.reserve-timeout-s} property shortens it in tests of a group that cannot be placed).
   */
  static final int RESERVE_TIMEOUT_S = 120;

  Placement {
    bundles = List.copyOf(bundles);
  }

  /** No reservation: Ray local mode. */
  static Placement none() {
    return new Placement(null, List.of(), 1);
  }

  /**
   * Reserves one bundle per actor for {@code device}, bundle {@code i} with {@code chips.get(i)}
   * chips (the trainer's first, then each sampler's), with {@code strategy} ({@code
   * javelin.ray.placement} property: PACK, SPREAD, STRICT_PACK, STRICT_SPREAD; default PACK). A
   * bundle lies on one node, so an actor's chips are chips of one host.
   */
  static Placement reserve(List<Integer> chips, String device) {
    return reserveRun(chips, device, 1);
  }

  /** As {@link #reserve} for samplers alone, bundle {@code i} sampler {@code i}: a gang's run. */
  static Placement reserveSamplers(List<Integer> chips, String device) {
    return reserveRun(chips, device, 0);
  }

  private static Placement reserveRun(List<Integer> chips, String device, int firstSampler) {
    String strategyName = System.getProperty("javelin.ray.placement", "PACK");
    PlacementStrategy strategy;
    try {
      strategy = PlacementStrategy.valueOf(strategyName.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "javelin.ray.placement: unknown strategy '" + strategyName + "'; use PACK or SPREAD", e);
    }
    List<Map<String, Double>> bundles = new ArrayList<>();
    for (int c : chips) {
      bundles.add(resourcesFor(device, c));
    }
    String want = firstSampler == 1 ? "one per sampler plus the trainer" : "one per sampler";
    PlacementGroup group =
        create(
            bundles,
            strategy,
            " ("
                + strategy
                + ") within %d s: the run needs "
                + want
                + "; start the head with more (RAY_NUM_CPUS for tools/setup/ray-cluster.sh) or"
                + " lower "
                + TrainerSection.SAMPLERS.name());
    return new Placement(group, bundles, firstSampler);
  }

  /**
   * Reserves a trainer gang's group: {@code ranks} bundles of {@code chips} chips each, laid out by
   * {@code placement}. A group the cluster cannot place in time is one line naming {@code
   * trainer.gang_placement}.
   */
  static Placement reserveGang(int ranks, int chips, String device, GangPlacement placement) {
    List<Map<String, Double>> bundles = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      bundles.add(resourcesFor(device, chips));
    }
    String fix =
        placement == GangPlacement.PACK
            ? "start the head with more (RAY_NUM_CPUS for tools/setup/ray-cluster.sh) or lower "
                + ChipKeys.TRAINER_NODES.name()
            : "a node each for "
                + (placement == GangPlacement.STRICT_SPREAD ? "every rank" : "the ranks")
                + " needs "
                + ranks
                + " nodes with these resources free; on fewer nodes set "
                + ChipKeys.GANG_PLACEMENT.name()
                + "=PACK (or SPREAD)";
    PlacementGroup group =
        create(
            bundles,
            PlacementStrategy.valueOf(placement.name()),
            " for the trainer gang of "
                + ChipKeys.TRAINER_NODES.assign(ranks)
                + " with "
                + ChipKeys.GANG_PLACEMENT.assign(placement.name())
                + " within %d s: "
                + fix);
    return new Placement(group, bundles, 0);
  }

  /**
   * Creates the group and waits for it; {@code refused} (with {@code %d} for the seconds) ends the
   * one-line error of a group not granted in time.
   */
  private static PlacementGroup create(
      List<Map<String, Double>> bundles, PlacementStrategy strategy, String refused) {
    PlacementGroup group =
        PlacementGroups.createPlacementGroup(
            new PlacementGroupCreationOptions.Builder()
                .setBundles(bundles)
                .setStrategy(strategy)
                .build());
    int timeout = Integer.getInteger("javelin.ray.reserve-timeout-s", RESERVE_TIMEOUT_S);
    if (!group.wait(timeout)) {
      PlacementGroups.removePlacementGroup(group.getId());
      throw new IllegalStateException(
          "the Ray cluster did not grant "
              + bundles.size()
              + " bundles of "
              + (new java.util.HashSet<>(bundles).size() == 1 ? bundles.get(0) : bundles)
              + String.format(Locale.ROOT, refused, timeout));
    }
    return group;
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

  /** The bundle of sampler {@code i}. */
  int samplerBundle(int i) {
    return firstSampler + i;
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
