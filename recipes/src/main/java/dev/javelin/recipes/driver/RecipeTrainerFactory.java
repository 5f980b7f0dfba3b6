package dev.javelin.recipes.driver;

import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
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
import dev.javelin.trainer.engine.PpoUpdater;
import dev.javelin.trainer.engine.ThreadGangTrainer;
import dev.javelin.trainer.engine.UpdaterOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

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
    int steps = Math.max(1, recipe.trainer().totalTrainingSteps());
    ChipPlan chips = recipe.chips();
    String device = recipe.trainer().device();
    // A cluster worker sees only the chips Ray granted it; in one JVM the spec names the chips.
    GrantedChips.limit(device);
    String spec = recipe.trainer().ray() == RayMode.CLUSTER ? device : chips.trainerSpec();
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
    ModelCheckpoint initial = ModelInit.initial(recipe);
    if (chips.trainerRanks() > 1) {
      // each rank its own host device and copy of the weights; rank 0 checkpoints and syncs
      return ThreadGangTrainer.start(
          chips.trainerRanks(),
          GANG_TIMEOUT,
          gang -> PpoUpdater.owning(Devices.open(spec), initial, config, options.withGang(gang)));
    }
    return PpoUpdater.owning(Devices.open(spec), initial, config, options);
  }
}
