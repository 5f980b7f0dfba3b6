package dev.javelin.recipes.driver;

import dev.javelin.datasets.BatchSampler;
import dev.javelin.datasets.DataOrderConfig;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.Tokenizer;
import dev.javelin.grpo.MetricNames;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.Settings;
import dev.javelin.recipes.metrics.HeldOut;
import dev.javelin.recipes.task.HfTokenizerFiles;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.trainer.SftExample;
import dev.javelin.trainer.Trainer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code sft} warm-up: cross-entropy on the dataset's reference answers ({@code groundTruth}
 * followed by eos), {@code total_training_steps} steps of {@code train_batch_size} prompts, with
 * greedy held-out validation every {@code test_freq}. The final model is written (atomically) to
 * {@code sft.output_dir}, in the HF layout a GRPO recipe's {@code model.path} reads.
 */
public final class SftRunner {
  private final RecipeConfig recipe;
  private final TaskData task;
  private final Trainer trainer;
  private final SamplerPool samplers;
  private final Validator validator;
  private final StepLog stepLog;
  private boolean heldOutIsAccuracy = true; // set by each validation
  private Map<String, Double> lastValidation = Map.of();

  public SftRunner(RunParts parts) {
    this.recipe = parts.recipe();
    this.task = parts.task();
    this.trainer = parts.trainer();
    this.samplers = parts.samplers();
    this.validator = parts.validator();
    this.stepLog = new StepLog(parts.metrics(), parts.console());
  }

  /** Adds a listener told every logged step's metrics (step 0: the validation before training). */
  public SftRunner addListener(StepListener listener) {
    stepLog.addListener(listener);
    return this;
  }

  /**
   * One line for the start of a warm-up: held-out accuracy of a model learning a task from scratch
   * stays near 0% for a long while and then rises fast (the bundled arith-sft: 0-2% for about 1,600
   * steps, then 40% within a few hundred), which looks like a stall if nobody says so.
   */
  public static String whatToExpect(RecipeConfig recipe, int totalSteps) {
    Settings s = recipe.settings();
    String stop =
        s.isSet(RecipeConfig.SFT_STOP_AT_ACCURACY)
            ? String.format(
                Locale.ROOT,
                "at %.0f%% held-out accuracy (%s) or after %d steps",
                100 * s.getDouble(RecipeConfig.SFT_STOP_AT_ACCURACY),
                RecipeConfig.SFT_STOP_AT_ACCURACY.name(),
                totalSteps)
            : "after " + totalSteps + " steps";
    return "what to expect: held-out accuracy usually stays near 0% for many steps while the model"
        + " learns the answer format, then rises quickly (arith-sft: 0-2% for ~1,600 steps);"
        + " the warm-up stops "
        + stop;
  }

  /** Where the final model goes. */
  public static Path outputDir(RecipeConfig recipe) {
    return recipe.sftOutputDir() != null
        ? Path.of(recipe.sftOutputDir())
        : recipe.trainer().defaultLocalDir().resolve("model");
  }

  /** Trains, validates, writes the model; returns the summary. */
  public RunSummary run(StopSignal stop) {
    long start = System.nanoTime();
    IdentityHashMap<Example, SftExample> examples = examples(task);
    BatchSampler order = order();
    int total = recipe.totalSteps(order.batchesPerEpoch());
    double startAcc = validate(0, total);
    double acc = startAcc;
    int accStep = 0;
    boolean isAccuracy = heldOutIsAccuracy;
    Map<String, Double> m = Map.of();
    int step = 0;
    String endedBy = null;
    stop.running();
    while (step < total && !stop.requested()) {
      step++;
      long t0 = System.nanoTime();
      List<SftExample> batch = new ArrayList<>();
      order.next().forEach(e -> batch.add(examples.get(e)));
      m = new LinkedHashMap<>(trainer.sftStep(batch));
      double seconds = (System.nanoTime() - t0) / 1e9;
      m.put(MetricNames.STEP_SECONDS, seconds);
      m.put(MetricNames.THROUGHPUT, tokens(batch) / seconds); // what the bar shows as tok/s
      if (recipe.trainer().testsAt(step, total) && validator.enabled()) {
        acc = validate(step, total);
        accStep = step;
        m.putAll(lastValidation);
        isAccuracy = heldOutIsAccuracy;
      }
      stepLog.log(step, total, m, HeldOut.value(m));
      if (accStep == step && heldOutIsAccuracy && acc >= stopAtAccuracy()) {
        // sft.stop_at_accuracy reached: the warm-up lands where GRPO should start
        endedBy = stoppedAt(acc, step, total);
        break;
      }
    }
    writeModel(outputDir(recipe));
    return new RunSummary(
        1,
        step,
        startAcc,
        acc,
        accStep,
        Double.NaN,
        (System.nanoTime() - start) / 1e9,
        stop.requested(),
        recipe.trainer().defaultLocalDir(),
        isAccuracy,
        outputDir(recipe),
        endedBy);
  }

  /** The training examples' batch order: the recipe's batch size, shuffle and seed. */
  private BatchSampler order() {
    return new BatchSampler(
        inTaskOrder(task),
        new DataOrderConfig(
            recipe.data().trainBatchSize(), true, recipe.data().shuffle(), recipe.data().seed()));
  }

  /** The end line's reason when {@code sft.stop_at_accuracy} stopped the warm-up. */
  private String stoppedAt(double acc, int step, int total) {
    return String.format(
        Locale.ROOT,
        RecipeConfig.SFT_STOP_AT_ACCURACY.name() + " %s reached: %s at step %d of %d",
        HeldOut.format(stopAtAccuracy(), true),
        HeldOut.format(acc, true),
        step,
        total);
  }

  /** Prompt and response tokens of a batch. */
  private static long tokens(List<SftExample> batch) {
    long n = 0;
    for (SftExample e : batch) {
      n += e.promptIds().length + e.responseIds().length;
    }
    return n;
  }

  /** {@code sft.stop_at_accuracy}, or +∞ when unset. */
  private double stopAtAccuracy() {
    return recipe.settings().isSet(RecipeConfig.SFT_STOP_AT_ACCURACY)
        ? recipe.settings().getDouble(RecipeConfig.SFT_STOP_AT_ACCURACY)
        : Double.POSITIVE_INFINITY;
  }

  private double validate(int step, int total) {
    if (!validator.enabled()) {
      return Double.NaN;
    }
    samplers.loadWeights(trainer.snapshot(step, recipe.rollout().weightDtype()));
    Map<String, Double> val = validator.run(step);
    if (step == 0) {
      stepLog.log(0, total, val, HeldOut.value(val));
    }
    heldOutIsAccuracy = HeldOut.isAccuracy(val);
    lastValidation = val;
    return HeldOut.value(val);
  }

  /**
   * The training examples in the task's order. Not the lookup map's key order: an identity map
   * iterates by identity hash, which made the shuffled data order (and so the warm-up) differ from
   * run to run.
   */
  private static List<Example> inTaskOrder(TaskData task) {
    List<Example> out = new ArrayList<>(task.train().size());
    task.train().forEach(p -> out.add(p.example()));
    return out;
  }

  private static IdentityHashMap<Example, SftExample> examples(TaskData task) {
    Tokenizer tok = task.tokenizer();
    IdentityHashMap<Example, SftExample> out = new IdentityHashMap<>();
    for (PromptedExample p : task.train()) {
      int[] answer = tok.encode(p.example().groundTruth());
      int[] response = java.util.Arrays.copyOf(answer, answer.length + 1);
      response[answer.length] = task.stopTokenIds()[0];
      out.put(p.example(), new SftExample(p.promptIds(), response));
    }
    return out;
  }

  private void writeModel(Path dir) {
    try {
      Path parent = dir.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Path tmp = Files.createTempDirectory(parent, ".tmp-model-");
      Files.delete(tmp); // the trainer wants an absent or empty directory; it creates it
      trainer.saveCheckpoint(tmp, Map.of("sft.steps", Long.toString(trainer.optimizerSteps())));
      HfTokenizerFiles.write(tmp, task.tokenizer());
      if (Files.exists(dir)) {
        Path old = parent.resolve(".old-model-" + System.nanoTime());
        Files.move(dir, old, StandardCopyOption.ATOMIC_MOVE);
        Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        deleteTree(old);
      } else {
        Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the SFT model to " + dir, e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
