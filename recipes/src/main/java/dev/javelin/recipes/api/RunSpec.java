package dev.javelin.recipes.api;

import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Recipes;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * A GRPO run, typed and validated: the recipe (every section a validated record, exactly as a
 * recipe file would give), the reward function, the listeners told of each step and where the run
 * prints. Build one in code with {@link #builder()} (or start from a recipe file with {@link
 * #fromRecipe}), then {@link GrpoRun#start} it.
 *
 * @param recipe the validated recipe
 * @param reward scores the rollouts; null means the recipe's {@code custom_reward_function} (by
 *     default the data-source dispatcher)
 * @param listeners told of each logged step
 * @param console where the run prints its header, memory estimate and summary
 * @param env stands for the process environment ({@code MLFLOW_TRACKING_URI}, {@code
 *     TENSORBOARD_DIR}, ...)
 * @param label how the run is named in its header line
 */
public record RunSpec(
    RecipeConfig recipe,
    RewardFunction reward,
    List<RunListener> listeners,
    PrintStream console,
    Map<String, String> env,
    String label) {

  /** Checks and copies. */
  public RunSpec {
    Objects.requireNonNull(recipe, "recipe");
    listeners = List.copyOf(listeners);
    Objects.requireNonNull(console, "console");
    env = Map.copyOf(env);
    Objects.requireNonNull(label, "label");
  }

  /** A spec that starts from every key's default (an empty recipe). */
  public static Builder builder() {
    return new Builder(null);
  }

  /**
   * A spec filled from a recipe file or a bundled recipe's name (e.g. {@code arith-grpo}); what the
   * builder sets then overrides it.
   */
  public static Builder fromRecipe(String recipe) {
    return new Builder(Objects.requireNonNull(recipe, "recipe"));
  }

  /**
   * Builds a {@link RunSpec} section by section. Each setter writes the recipe key of the same
   * meaning, so anything a recipe file can say, {@link #set} can say too; {@link #build} validates
   * the whole as a recipe file is validated (one {@code ConfigException} naming the key).
   */
  public static final class Builder {
    private final String base;
    private final SpecValues values = new SpecValues();
    private final List<String> overrides = new ArrayList<>();
    private final List<RunListener> listeners = new ArrayList<>();
    private RewardFunction reward;
    private PrintStream console = System.out;
    private Map<String, String> env = System.getenv();

    private Builder(String base) {
      this.base = base;
    }

    /** Sets the model section. */
    public Builder model(Consumer<ModelSpec> section) {
      section.accept(new ModelSpec(values));
      return this;
    }

    /** Sets the data section. */
    public Builder data(Consumer<DataSpec> section) {
      section.accept(new DataSpec(values));
      return this;
    }

    /** Sets the algorithm section (advantages and the policy update). */
    public Builder algorithm(Consumer<AlgorithmSpec> section) {
      section.accept(new AlgorithmSpec(values));
      return this;
    }

    /** Sets the rollout section. */
    public Builder rollout(Consumer<RolloutSpec> section) {
      section.accept(new RolloutSpec(values));
      return this;
    }

    /** Sets the trainer section. */
    public Builder trainer(Consumer<TrainerSpec> section) {
      section.accept(new TrainerSpec(values));
      return this;
    }

    /**
     * Sets any recipe key by its name (docs/RECIPES.md lists them), e.g. {@code
     * set("actor_rollout_ref.actor.clip_ratio", 0.2)}.
     */
    public Builder set(String key, Object value) {
      values.put(key, value);
      return this;
    }

    /** Applies {@code key=value} overrides as the command line does, after everything else. */
    public Builder overrides(List<String> keyValues) {
      overrides.addAll(keyValues);
      return this;
    }

    /** Scores rollouts with {@code fn} instead of the recipe's reward. */
    public Builder reward(RewardFunction fn) {
      this.reward = Objects.requireNonNull(fn, "reward");
      return this;
    }

    /** Scores rollouts with a lambda: {@code name} in logs, {@code score} per rollout. */
    public Builder reward(String name, ToDoubleFunction<RewardInput> score) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(score, "score");
      return reward(
          new RewardFunction() {
            @Override
            public String name() {
              return name;
            }

            @Override
            public RewardResult score(RewardInput input) {
              return RewardResult.of(score.applyAsDouble(input));
            }
          });
    }

    /** Adds a listener told of each logged step. */
    public Builder onStep(RunListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /** Prints the run's header and summary to {@code out} (default {@code System.out}). */
    public Builder console(PrintStream out) {
      this.console = Objects.requireNonNull(out, "out");
      return this;
    }

    /** Uses {@code vars} in place of the process environment (metrics backends read it). */
    public Builder env(Map<String, String> vars) {
      this.env = Map.copyOf(vars);
      return this;
    }

    /**
     * Validates the recipe. In a job that {@code javelin submit} started (where Ray sets {@code
     * RAY_ADDRESS}), a spec that does not choose {@code trainer.ray} runs on that cluster.
     */
    public RunSpec build() {
      List<String> all = new ArrayList<>();
      values.asMap().forEach((k, v) -> all.add(Recipes.override(k, v)));
      all.addAll(overrides);
      String ray = TrainerSection.RAY.name();
      boolean choosesRay = all.stream().anyMatch(o -> o.startsWith(ray + "="));
      String address = env.get("RAY_ADDRESS");
      if (!choosesRay && address != null && !address.isBlank()) {
        all.add(0, Recipes.override(ray, TrainerSection.RayMode.CLUSTER.key()));
      }
      RecipeConfig recipe =
          base == null ? Recipes.loadOverrides("the run spec", all) : Recipes.load(base, all);
      return new RunSpec(
          recipe, reward, listeners, console, env, base == null ? "(spec built in code)" : base);
    }
  }
}
