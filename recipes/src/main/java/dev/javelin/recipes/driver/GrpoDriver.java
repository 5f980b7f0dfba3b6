package dev.javelin.recipes.driver;

import dev.javelin.datasets.BatchSampler;
import dev.javelin.datasets.DataOrderConfig;
import dev.javelin.datasets.Example;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.metrics.MetricsJsonl;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.rewards.ScoredBatch;
import dev.javelin.sampler.GenerationResult;
import dev.javelin.sampler.SamplingParams;
import dev.javelin.trainer.PolicyRole;
import dev.javelin.trainer.TrainSample;
import dev.javelin.trainer.Trainer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * The GRPO loop, in VeRL's order: batch → generate (n per prompt, across samplers) → rewards →
 * advantages → old/ref log-probs → update → publish weights → validate every {@code test_freq} →
 * checkpoint every {@code save_freq} → metrics. Every phase is timed ({@code timing_s/gen}, ...).
 */
public final class GrpoDriver {
  private static final Logger LOG = Logger.getLogger(GrpoDriver.class.getName());
  private final RecipeConfig recipe;
  private final TaskData task;
  private final Trainer trainer;
  private final SamplerPool samplers;
  private final Scoring scoring;
  private final RequestFactory requests;
  private final Validator validator;
  private final RunCheckpoints checkpoints;
  private final MetricsJsonl metrics;
  private final ConsoleProgress console;
  private final Map<Example, PromptedExample> prompted = new IdentityHashMap<>();
  private final List<StepListener> listeners = new ArrayList<>();

  /** Wires a run; {@code console} may be null (no progress bar). */
  public GrpoDriver(
      RecipeConfig recipe,
      TaskData task,
      Trainer trainer,
      SamplerPool samplers,
      Scoring scoring,
      MetricsJsonl metrics,
      ConsoleProgress console) {
    this.recipe = recipe;
    this.task = task;
    this.trainer = trainer;
    this.samplers = samplers;
    this.scoring = scoring;
    this.requests = new RequestFactory(recipe.trainer().seed());
    this.validator =
        new Validator(samplers, scoring, requests, recipe, task.val(), task.stopTokenIds());
    this.checkpoints = new RunCheckpoints(recipe, trainer);
    this.metrics = metrics;
    this.console = console;
    for (PromptedExample p : task.train()) {
      prompted.put(p.example(), p);
    }
  }

  /** Adds a listener told every logged step's metrics. */
  public GrpoDriver addListener(StepListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
    return this;
  }

  /** Runs (or resumes) until the last step or a stop request; returns the summary. */
  public RunSummary run(StopSignal stop) {
    long start = System.nanoTime();
    DataOrderConfig orderConfig =
        new DataOrderConfig(
            recipe.data().trainBatchSize(), true, recipe.data().shuffle(), recipe.data().seed());
    List<Example> examples = new ArrayList<>(prompted.keySet().size());
    task.train().forEach(p -> examples.add(p.example()));
    BatchSampler order = new BatchSampler(examples, orderConfig);
    int total = recipe.totalSteps(order.batchesPerEpoch());
    TrainingState state = checkpoints.resume(order.state());
    order = new BatchSampler(examples, orderConfig, state.data());
    samplers.loadWeights(trainer.snapshot(state.globalStep(), recipe.rollout().weightDtype()));
    double startAcc = state.startAccuracy();
    if (state.globalStep() == 0 && recipe.trainer().valBeforeTrain() && validator.enabled()) {
      Map<String, Double> val = validator.run(0);
      startAcc = val.get("val/acc/mean@1");
      log(0, total, val, startAcc);
    }
    int step = state.globalStep();
    double lastAcc = startAcc;
    double lastReward = Double.NaN;
    boolean saved = true;
    while (step < total && !stop.requested()) {
      step++;
      Map<String, Double> m = step(step, order.next());
      lastReward = m.getOrDefault("critic/score/mean", Double.NaN);
      if (validator.enabled() && recipe.trainer().testsAt(step, total)) {
        long t0 = System.nanoTime();
        m.putAll(validator.run(step));
        m.put("timing_s/testing", (System.nanoTime() - t0) / 1e9);
        lastAcc = m.get("val/acc/mean@1");
      }
      saved = recipe.trainer().savesAt(step, total);
      if (saved) {
        checkpoints.save(new TrainingState(step, order.state(), startAcc), m);
      }
      log(step, total, m, m.getOrDefault("val/acc/mean@1", Double.NaN));
    }
    if (!saved) {
      checkpoints.save(new TrainingState(step, order.state(), startAcc), new LinkedHashMap<>());
    }
    return new RunSummary(
        state.globalStep() + 1,
        step,
        startAcc,
        lastAcc,
        lastReward,
        (System.nanoTime() - start) / 1e9,
        step < total,
        recipe.trainer().defaultLocalDir());
  }

  /** One GRPO step over {@code batch}; returns its metrics. */
  Map<String, Double> step(int step, List<Example> batch) {
    PhaseTimer timer = new PhaseTimer();
    long start = System.nanoTime();
    List<PromptedExample> prompts = new ArrayList<>(batch.size());
    batch.forEach(e -> prompts.add(prompted.get(e)));
    int n = recipe.rollout().n();
    GenerationResult gen =
        timer.time(
            "gen", () -> samplers.generate(requests.requests("train", step, prompts, n, params())));
    List<PromptedExample> sources = new ArrayList<>(gen.rollouts().size());
    prompts.forEach(
        p -> {
          for (int k = 0; k < n; k++) {
            sources.add(p);
          }
        });
    ScoredBatch scored = timer.time("reward", () -> scoring.score(gen.rollouts(), sources));
    double[] scores = scored.scores();
    Advantages.Result adv =
        timer.time("adv", () -> Advantages.compute(gen.rollouts(), scores, recipe.algorithm()));
    List<TrainSample> samples = adv.samples();
    if (!recipe.trainerConfig(1).bypassesOldLogProbs()) {
      samples = timer.time("old_log_prob", () -> withLogProbs(adv.samples(), PolicyRole.ACTOR));
    }
    if (recipe.actor().loss().useKlLoss()) {
      List<TrainSample> withOld = samples;
      samples = timer.time("ref", () -> withLogProbs(withOld, PolicyRole.REFERENCE));
    }
    List<TrainSample> ready = samples;
    Map<String, Double> m =
        new LinkedHashMap<>(timer.time("update_actor", () -> trainer.update(ready)));
    timer.time(
        "update_weights",
        () -> samplers.loadWeights(trainer.snapshot(step, recipe.rollout().weightDtype())));
    double seconds = (System.nanoTime() - start) / 1e9;
    m.putAll(StepMetrics.of(step, gen, scores, adv, scored.metrics(), seconds));
    m.putAll(timer.metrics());
    m.put("timing_s/step", seconds);
    return m;
  }

  private SamplingParams params() {
    var r = recipe.rollout();
    return new SamplingParams(
        r.temperature(),
        r.topK(),
        r.topP(),
        r.minP(),
        recipe.data().maxResponseLength(),
        task.stopTokenIds(),
        false);
  }

  private List<TrainSample> withLogProbs(List<TrainSample> samples, PolicyRole role) {
    float[][] lp = trainer.logProbs(samples, role);
    List<TrainSample> out = new ArrayList<>(samples.size());
    for (int i = 0; i < samples.size(); i++) {
      TrainSample s = samples.get(i);
      out.add(role == PolicyRole.ACTOR ? s.withOldLogProbs(lp[i]) : s.withRefLogProbs(lp[i]));
    }
    return out;
  }

  private void log(int step, int total, Map<String, Double> m, double accuracy) {
    metrics.write(step, m);
    for (var it = listeners.iterator(); it.hasNext(); ) {
      StepListener l = it.next();
      try {
        l.onStep(step, total, Collections.unmodifiableMap(m));
      } catch (RuntimeException e) {
        LOG.warning("step listener failed and was dropped: " + e);
        it.remove();
      }
    }
    if (console != null) {
      if (step == 0) {
        console.message(
            String.format(
                java.util.Locale.ROOT, "step 0: held-out greedy accuracy %.1f%%", 100 * accuracy));
      } else {
        console.step(step, total, m, accuracy);
      }
    }
  }
}
