package dev.javelin.recipes.driver;

import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.distributed.Gang;
import dev.javelin.recipes.config.ChipPlan;
import dev.javelin.recipes.config.LoraKeys;
import dev.javelin.recipes.config.MixedPrecisionKeys;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.ray.GrantedChips;
import dev.javelin.trainer.Trainer;
import dev.javelin.trainer.TrainerConfig;
import dev.javelin.trainer.TrainerFactory;
import dev.javelin.trainer.engine.GangRankTrainer;
import dev.javelin.trainer.engine.PpoUpdater;
import dev.javelin.trainer.engine.ThreadGangTrainer;
import dev.javelin.trainer.engine.UpdaterOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Builds the trainer inside a {@code TrainerActor} from a recipe: the spec is the resolved recipe
 * as flat YAML ({@link Recipes#toYaml}) with {@code trainer.total_training_steps} set, so the actor
 * sees exactly the driver's configuration.
 */
public final class RecipeTrainerFactory implements TrainerFactory {
  /** How long a trainer rank waits for another (a slow step's micro-batches) before failing. */
  private static final Duration GANG_TIMEOUT = Duration.ofMinutes(30);

  /** The name drivers ask for. */
  public static final String NAME = "recipe";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Trainer create(byte[] spec) {
    RecipeConfig recipe =
        Recipes.fromYaml(new String(spec, StandardCharsets.UTF_8), "trainer spec", List.of());
    return create(recipe);
  }

  /** The trainer for {@code recipe}, in this process. */
  public static Trainer create(RecipeConfig recipe) {
    Rank rank = Rank.of(recipe);
    int ranks = recipe.chips().trainerRanks();
    if (ranks > 1) {
      // each rank its own device (chips of its own) and copy of the weights
      return ThreadGangTrainer.start(ranks, GANG_TIMEOUT, rank::updater);
    }
    return rank.updater(null);
  }

  /**
   * Rank {@code gang.rank()} of a gang whose ranks are processes (the trainer ranks of a run on a
   * Ray cluster), joined to its peers by {@code gang}.
   */
  public static GangRankTrainer createRank(RecipeConfig recipe, Gang gang) {
    return new GangRankTrainer(Rank.of(recipe).updater(gang), gang);
  }

  /** How long a rank in another process waits for a peer before failing. */
  public static Duration gangTimeout() {
    return GANG_TIMEOUT;
  }

  /**
   * What every rank of a recipe's trainer is built from; {@code specs} maps a rank to the device it
   * opens (its own chips when the ranks share this host, all granted chips in a cluster worker).
   */
  private record Rank(
      IntFunction<String> specs,
      ModelCheckpoint initial,
      TrainerConfig config,
      UpdaterOptions options) {
    static Rank of(RecipeConfig recipe) {
      int steps = Math.max(1, recipe.trainer().totalTrainingSteps());
      ChipPlan chips = recipe.chips();
      String device = recipe.trainer().device();
      // A cluster worker sees only the chips Ray granted it; in one JVM the spec names the chips.
      GrantedChips.limit(device);
      IntFunction<String> specs =
          recipe.trainer().ray() == RayMode.CLUSTER ? r -> device : chips::trainerSpec;
      TrainerConfig config =
          recipe.trainerConfig(steps).toBuilder()
              .modelType(ModelInit.modelType(recipe))
              .mesh(chips.trainer())
              .build();
      UpdaterOptions options =
          new UpdaterOptions(
              recipe.model().remat(),
              recipe.lora(),
              LoraKeys.seed(recipe.settings()),
              MixedPrecisionKeys.computeDType(recipe.settings()));
      return new Rank(specs, ModelInit.initial(recipe), config, options);
    }

    /** A rank's updater on a device of its own; {@code gang} null for a trainer of one rank. */
    PpoUpdater updater(Gang gang) {
      UpdaterOptions o = gang == null ? options : options.withGang(gang);
      return PpoUpdater.owning(
          Devices.open(specs.apply(gang == null ? 0 : gang.rank())), initial, config, o);
    }
  }
}
