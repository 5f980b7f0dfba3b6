package dev.javelin.recipes.ray;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.checkpoint.ModelConfigJson;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.recipes.config.ChipKeys;
import dev.javelin.recipes.config.ChipPlan;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.ModelSection;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.driver.LocalSamplerPool;
import dev.javelin.recipes.driver.ModelInit;
import dev.javelin.recipes.driver.RecipeTrainerFactory;
import dev.javelin.recipes.driver.SamplerPool;
import dev.javelin.recipes.driver.WeightFiles;
import dev.javelin.sampler.SamplerActor;
import dev.javelin.sampler.SamplerConfig;
import dev.javelin.trainer.Trainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The trainer and the sampler pool of a run, placed as {@code trainer.ray} says: Ray local mode
 * inside this JVM (the embedded default: nothing to start), actors on a running Ray cluster (each a
 * worker JVM, reserved together in one placement group; a trainer gang's ranks in a group of their
 * own), or plain objects.
 */
public final class Workers implements AutoCloseable {
  private final Trainer trainer;
  private final SamplerPool samplers;
  private final boolean ownsRay;
  private final Placement placement;

  /** {@code trainer} is null for samplers started alone ({@link #startSamplers}). */
  private Workers(Trainer trainer, SamplerPool samplers, boolean ownsRay, Placement placement) {
    this.trainer = trainer;
    this.samplers = Objects.requireNonNull(samplers, "samplers");
    this.ownsRay = ownsRay;
    this.placement = placement;
  }

  /**
   * Opens every {@code *.safetensors} file of the model directory once (header and bounds only), so
   * a truncated or foreign file is one line here instead of a failed actor.
   */
  static void checkWeights(String modelPath) {
    if (modelPath == null || !Files.isDirectory(Path.of(modelPath))) {
      return;
    }
    try (Stream<Path> files = Files.list(Path.of(modelPath))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".safetensors")).sorted().toList()) {
        SafetensorsFile.open(f).close();
      }
    } catch (IOException e) {
      throw new ConfigException(
          "recipe key '"
              + ModelSection.PATH.name()
              + "': cannot read "
              + modelPath
              + " ("
              + e
              + ")",
          e);
    }
  }

  /**
   * Opens and closes {@code device} once; a device this host lacks, or one with fewer chips than
   * {@code chips} assigns, is one line naming the key.
   */
  static void checkDevice(String device, ChipPlan chips) {
    int available;
    try (Device d = Devices.open(device)) {
      available = d.chips().size();
    } catch (IllegalArgumentException | IllegalStateException | UnsatisfiedLinkError e) {
      throw new ConfigException(
          "recipe key '"
              + TrainerSection.DEVICE.name()
              + "': "
              + e.getMessage()
              + " (use --device cpu, or install the plugin the reason names)",
          e);
    }
    chips.checkHost(available);
  }

  /**
   * Starts the trainer (for a run of {@code totalSteps}) and {@code trainer.samplers} samplers that
   * wait for the first weights.
   */
  public static Workers start(RecipeConfig recipe, int totalSteps) {
    return start(recipe, totalSteps, true);
  }

  /**
   * Starts only the {@code trainer.samplers} samplers, waiting for weights the caller publishes (an
   * eval in this JVM: no trainer and optimizer state just to publish weights). Not for a cluster,
   * whose placement keeps bundle 0 for the trainer.
   */
  public static Workers startSamplers(RecipeConfig recipe) {
    if (recipe.trainer().ray() == RayMode.CLUSTER) {
      throw new IllegalArgumentException("samplers alone run in local mode or without Ray only");
    }
    return start(recipe, 1, false);
  }

  private static Workers start(RecipeConfig recipe, int totalSteps, boolean withTrainer) {
    RecipeConfig withSteps = withTotalSteps(recipe, totalSteps);
    String configJson = ModelInit.configJson(recipe);
    int n = recipe.trainer().samplers();
    int slots = recipe.rollout().maxNumSeqs();
    String dtype = recipe.rollout().dtype().mlirName();
    String device = recipe.trainer().device();
    ChipPlan chips = recipe.chips();
    chips.checkModel(ModelConfigJson.parse(configJson));
    boolean inCluster = recipe.trainer().ray() == RayMode.CLUSTER;
    // a gang of trainer processes has a placement group of its own; the run's holds the samplers
    boolean gang = inCluster && withTrainer && chips.trainerRanks() > 1;
    List<String> samplerSpecs = new ArrayList<>();
    List<Integer> bundleChips =
        gang ? new ArrayList<>() : new ArrayList<>(List.of(chips.trainer().chips()));
    for (int i = 0; i < n; i++) {
      // a cluster worker is limited to its granted chips and opens them all
      samplerSpecs.add(inCluster ? device : chips.samplerSpec(i));
      bundleChips.add(chips.rolloutTp());
    }
    if (!inCluster) {
      checkDevice(device, chips); // here the workers share this host: fail before any actor starts
      checkWeights(recipe.model().path());
      WeightFiles.check(recipe); // shapes against config.json, from the headers only
    }
    if (recipe.trainer().ray() == RayMode.OFF) {
      return withoutRay(withSteps, withTrainer, samplerSpecs, configJson);
    }
    boolean owns = RayRuntime.ensureStarted(recipe.trainer(), recipe.reward());
    boolean cluster = !RayRuntime.localMode();
    checkRayMode(recipe, cluster);
    Placement placement =
        !cluster
            ? Placement.none()
            : gang
                ? Placement.reserveSamplers(bundleChips, device)
                : Placement.reserve(bundleChips, device);
    try {
      String yaml = Recipes.toYaml(withSteps.settings());
      Trainer trainer = !withTrainer ? null : rayTrainer(recipe, yaml, gang, placement);
      RaySamplerPool.Spec spec =
          new RaySamplerPool.Spec(
              samplerSpecs,
              configJson,
              slots,
              dtype,
              chips.rolloutTp(),
              recipe.trainer().maxRestarts());
      return new Workers(trainer, RaySamplerPool.start(spec, placement), owns, placement);
    } catch (RuntimeException e) {
      placement.release();
      throw e;
    }
  }

  /** Trainer and samplers as objects of this JVM ({@code trainer.ray=off}). */
  private static Workers withoutRay(
      RecipeConfig recipe, boolean withTrainer, List<String> samplerSpecs, String configJson) {
    ChipPlan chips = recipe.chips();
    String dtype = recipe.rollout().dtype().mlirName();
    SamplerConfig config =
        new SamplerConfig(
            recipe.rollout().maxNumSeqs(), SamplerConfig.dtypeNamed(dtype), chips.rolloutTp());
    List<SamplerActor> samplers = new ArrayList<>();
    for (String spec : samplerSpecs) {
      samplers.add(SamplerActor.awaitingWeights(spec, configJson, config));
    }
    return new Workers(
        withTrainer ? RecipeTrainerFactory.create(recipe) : null,
        new LocalSamplerPool(samplers),
        false,
        Placement.none());
  }

  /**
   * The trainer as a Ray actor in {@code placement}, or (a gang) as one worker per rank in a
   * placement group of its own.
   */
  private static Trainer rayTrainer(
      RecipeConfig recipe, String yaml, boolean gang, Placement placement) {
    if (!gang) {
      return RemoteTrainer.start(RecipeTrainerFactory.NAME, yaml, placement);
    }
    ChipPlan chips = recipe.chips();
    Placement ranks =
        Placement.reserveGang(
            chips.trainerRanks(),
            chips.trainer().chips(),
            recipe.trainer().device(),
            ChipKeys.gangPlacement(recipe.settings()));
    return RayGangTrainer.start(yaml, chips.trainerRanks(), ranks);
  }

  /**
   * {@code recipe} running {@code totalSteps} steps (what the trainer sizes its LR schedule by).
   */
  private static RecipeConfig withTotalSteps(RecipeConfig recipe, int totalSteps) {
    return Recipes.fromYaml(
        Recipes.toYaml(recipe.settings()),
        "resolved recipe",
        List.of(TrainerSection.TOTAL_TRAINING_STEPS.name() + "=" + totalSteps));
  }

  /** Ray starts once per JVM: a JVM already running it the other way cannot switch. */
  private static void checkRayMode(RecipeConfig recipe, boolean cluster) {
    if (cluster != (recipe.trainer().ray() == RayMode.CLUSTER)) {
      throw new ConfigException(
          TrainerSection.RAY.name()
              + ": this JVM already runs Ray "
              + (cluster ? "connected to a cluster" : "in local mode")
              + " and Ray starts once per JVM; run "
              + TrainerSection.RAY.assign(recipe.trainer().ray().key())
              + " in a fresh process");
    }
  }

  /** The policy trainer. */
  public Trainer trainer() {
    if (trainer == null) {
      throw new IllegalStateException("these workers were started without a trainer");
    }
    return trainer;
  }

  /** The sampler pool. */
  public SamplerPool samplers() {
    return samplers;
  }

  /** Whether starting these workers started Ray in this JVM. */
  public boolean ownsRay() {
    return ownsRay;
  }

  @Override
  public void close() {
    // Ray stays up: a warm-up and its run (and tests) share one runtime, which ends with the JVM.
    try {
      samplers.close();
      if (trainer != null) {
        trainer.close();
      }
    } finally {
      placement.release();
    }
  }
}
