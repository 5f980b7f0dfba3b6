package dev.javelin.recipes.ray;

import dev.javelin.backend.Devices;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.driver.LocalSamplerPool;
import dev.javelin.recipes.driver.ModelInit;
import dev.javelin.recipes.driver.RecipeTrainerFactory;
import dev.javelin.recipes.driver.SamplerPool;
import dev.javelin.sampler.SamplerActor;
import dev.javelin.trainer.Trainer;
import io.ray.api.Ray;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * The trainer and the sampler pool of a run, placed as {@code trainer.ray} says: Ray local mode
 * inside this JVM (the embedded default: nothing to start) or plain objects.
 *
 * @param trainer the policy trainer
 * @param samplers the sampler pool
 * @param ownsRay whether this object started Ray
 */
public record Workers(Trainer trainer, SamplerPool samplers, boolean ownsRay)
    implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Workers.class.getName());

  /** Validates. */
  public Workers {
    Objects.requireNonNull(trainer, "trainer");
    Objects.requireNonNull(samplers, "samplers");
  }

  /**
   * Starts the trainer (for a run of {@code totalSteps}) and {@code trainer.samplers} samplers that
   * wait for the first weights.
   */
  public static Workers start(RecipeConfig recipe, int totalSteps) {
    RecipeConfig withSteps =
        Recipes.fromYaml(
            Recipes.toYaml(recipe.settings()),
            "resolved recipe",
            List.of("trainer.total_training_steps=" + totalSteps));
    String configJson = ModelInit.configJson(recipe);
    int n = recipe.trainer().samplers();
    int slots = recipe.rollout().maxNumSeqs();
    String device = recipe.trainer().device();
    if (recipe.trainer().ray().equals("off")) {
      List<SamplerActor> samplers = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        samplers.add(SamplerActor.awaitingWeights(device, configJson, slots));
      }
      Devices.open(device); // fail fast on a bad device spec
      return new Workers(
          RecipeTrainerFactory.create(withSteps), new LocalSamplerPool(samplers), false);
    }
    boolean owns = !Ray.isInitialized();
    if (owns) {
      System.setProperty("ray.local-mode", "true");
      Ray.init();
      LOG.info("Ray started in local mode (one JVM)");
    }
    Trainer trainer =
        RayTrainer.start(RecipeTrainerFactory.NAME, Recipes.toYaml(withSteps.settings()));
    boolean localMode = Boolean.parseBoolean(System.getProperty("ray.local-mode", "false"));
    return new Workers(
        trainer, RaySamplerPool.start(n, device, configJson, slots, localMode), owns);
  }

  @Override
  public void close() {
    // Ray stays up: a warm-up and its run (and tests) share one local-mode runtime, which ends
    // with the JVM.
    samplers.close();
    trainer.close();
  }
}
