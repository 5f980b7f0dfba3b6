package dev.javelin.recipes.driver;

import dev.javelin.datasets.BatchSampler;
import dev.javelin.datasets.DataOrderConfig;
import dev.javelin.datasets.Example;
import dev.javelin.grpo.MetricNames;
import dev.javelin.recipes.config.FilterGroupsKeys;
import dev.javelin.recipes.config.LoraKeys;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.RewardHealthKeys;
import dev.javelin.recipes.config.RolloutCorrectionKeys;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import dev.javelin.recipes.metrics.ConsoleProgress;
import dev.javelin.recipes.metrics.HeldOut;
import dev.javelin.recipes.metrics.MetricsJsonl;
import dev.javelin.recipes.metrics.RunFile;
import dev.javelin.recipes.task.PromptedExample;
import dev.javelin.recipes.task.TaskData;
import dev.javelin.sampler.SamplingParams;
import dev.javelin.trainer.FaultPoint;
import dev.javelin.trainer.ResumeMode;
import dev.javelin.trainer.Trainer;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.WeightSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The GRPO loop, in VeRL's order: batch → generate (n per prompt, across samplers) → rewards →
 * advantages → old/ref log-probs → update → publish weights → validate every {@code test_freq} →
 * checkpoint every {@code save_freq} → metrics. Every phase is timed ({@code timing_s/gen}, ...).
 *
 * <p>{@code trainer.rollout_mode=one_step_off} (VeRL's one-step off-policy): step k draws batch k+1
 * and starts its generation, by the weights the samplers hold (v_{k−1}), before training on batch
 * k; the new weights v_k are published once that generation is back. Batch k+1 is then trained by
 * v_k, one version off (the loss applies the recipe's TIS correction, see {@link
 * RolloutCorrectionKeys}). A checkpoint saves the data order from before any prefetched batch, so a
 * resumed run draws and regenerates it: no prompt is lost or trained twice. Every step appends its
 * batch to {@code batches.jsonl} ({@link BatchLog}).
 */
public final class GrpoDriver {
  private static final Logger LOG = Logger.getLogger(GrpoDriver.class.getName());
  private final RecipeConfig recipe;
  private final TaskData task;
  private final Trainer trainer;
  private final SamplerPool samplers;
  private final RequestFactory requests;
  private final Validator validator;
  private final Path valSamples;
  private final RunCheckpoints checkpoints;
  private final MetricsJsonl metrics;
  private final ConsoleProgress console;
  private final IdentityHashMap<Example, PromptedExample> prompted = new IdentityHashMap<>();
  private final StepLog stepLog;
  private final PolicyUpdate update;
  private final DynamicSampling dynamic;
  private final BatchLog batchLog;
  private final RewardHealth rewardHealth;
  private final boolean oneStepOff;
  private boolean basePublished; // whether the samplers got the frozen base of a LoRA run
  private int stepInProgress;
  private Optional<Path> lastSaved = Optional.empty();

  /** Wires a run. */
  public GrpoDriver(RunParts parts) {
    this(parts, Optional.empty());
  }

  /**
   * Wires a run that resumes per {@code resume} instead of {@code trainer.resume_mode} when given
   * (a trainer gang restarted from the run's last checkpoint, {@link GangRestarts}).
   */
  GrpoDriver(RunParts parts, Optional<ResumeMode> resume) {
    this.recipe = parts.recipe();
    this.task = parts.task();
    this.trainer = parts.trainer();
    this.samplers = parts.samplers();
    this.requests = new RequestFactory(recipe.trainer().seed());
    this.valSamples = recipe.trainer().defaultLocalDir().resolve("val_generations.jsonl");
    this.validator =
        parts.validator().logSamplesTo(valSamples, recipe.trainer().logValGenerations());
    this.checkpoints = new RunCheckpoints(recipe, trainer, task.tokenizer(), resume);
    this.metrics = parts.metrics();
    this.console = parts.console();
    this.stepLog = new StepLog(metrics, console);
    this.update =
        new PolicyUpdate(recipe, trainer, parts.scoring(), RemaxBaseline.ifRemax(parts, requests));
    this.dynamic = new DynamicSampling(recipe, parts.scoring());
    this.rewardHealth =
        new RewardHealth(RewardHealthKeys.maxErrorRate(recipe.settings()), parts.scoring());
    this.batchLog = new BatchLog(recipe.trainer().defaultLocalDir().resolve("batches.jsonl"));
    this.oneStepOff = recipe.trainer().oneStepOff();
    if (oneStepOff) {
      LOG.info(() -> OverlapMetrics.note(recipe));
    }
    for (PromptedExample p : task.train()) {
      prompted.put(p.example(), p);
    }
  }

  /** The step {@link #run} was at (0 before its first step): where a failure happened. */
  int stepInProgress() {
    return stepInProgress;
  }

  /** The last checkpoint {@link #run} saved, if any. */
  Optional<Path> lastSaved() {
    return lastSaved;
  }

  /** Adds a listener told every logged step's metrics. */
  public GrpoDriver addListener(StepListener listener) {
    stepLog.addListener(listener);
    return this;
  }

  /** Runs (or resumes) until the last step or a stop request; returns the summary. */
  public RunSummary run(StopSignal stop) {
    long start = System.nanoTime();
    stepInProgress = 0;
    LoopRun run = prepare();
    stop.running();
    Map<String, Double> saveTiming = new LinkedHashMap<>(); // the last save's, in the next row
    try (BatchLog batches = batchLog;
        GenerationLauncher launcher = launcher()) {
      while (run.step < run.total && !stop.requested()) {
        int step = ++run.step;
        stepInProgress = step;
        StepOutcome out =
            step(step, run.pending, prefetchUnless(stop, step, run), run.source, launcher);
        run.pending = out.next();
        Map<String, Double> m = out.metrics();
        m.putAll(saveTiming);
        saveTiming.clear();
        run.lastReward = m.getOrDefault(MetricNames.SCORE_MEAN, Double.NaN);
        validateIfDue(step, run, m);
        // The step's lines go before its checkpoint: a kill between them leaves lines past the
        // checkpoint's step, which the resume drops; the other order would lose step K's lines.
        batches.write(out.batch());
        double heldOut = HeldOut.value(m);
        stepLog.log(step, run.total, m, heldOut);
        FaultPoint.reach("records-written", recipe.trainer().defaultLocalDir());
        rewardHealth.afterStep();
        boolean best = checkpoints.isNewBest(heldOut);
        run.saved = best || recipe.trainer().savesAt(step, run.total);
        if (run.saved) {
          checkpoints.save(run.state(), saveTiming);
          lastSaved = Optional.of(checkpoints.stepDir(step));
        }
        if (best) {
          Path dir = checkpoints.markBest(step, heldOut);
          say("best validation so far (" + HeldOut.format(heldOut, run.isAccuracy) + "): " + dir);
        }
      }
      if (!run.saved) {
        // A prefetched batch still in hand is dropped; the checkpoint's data order draws it again.
        checkpoints.save(run.state(), new LinkedHashMap<>());
      }
    }
    checkpoints.startWasBetter(run.startAcc, run.isAccuracy).ifPresent(this::say);
    return run.summary((System.nanoTime() - start) / 1e9, recipe.trainer().defaultLocalDir());
  }

  /**
   * Resumes from the run's last checkpoint (or starts), loads the samplers' weights and validates
   * before the first step when asked.
   */
  private LoopRun prepare() {
    DataOrderConfig orderConfig =
        new DataOrderConfig(
            FilterGroupsKeys.genBatchSize(recipe.settings()),
            true,
            recipe.data().shuffle(),
            recipe.data().seed());
    List<Example> examples = new ArrayList<>(prompted.keySet().size());
    task.train().forEach(p -> examples.add(p.example()));
    BatchSampler fresh = new BatchSampler(examples, orderConfig);
    int total = recipe.totalSteps(fresh.batchesPerEpoch());
    TrainingState state = checkpoints.resume(fresh.state());
    BatchSource source = new BatchSource(new BatchSampler(examples, orderConfig, state.data()));
    int step = state.globalStep();
    // Records follow the checkpoints: lines of steps no checkpoint covers are dropped (a fresh
    // start, -1, drops every step's), so after any kill each step has exactly one line.
    int kept = step > 0 ? step : -1;
    batchLog.resumeAt(kept);
    RunFile.keepThrough(valSamples, kept);
    RunFile.Dropped dropped = metrics.resumeAt(kept);
    if (dropped.lines() > 0) {
      say(dropped.describe("metrics.jsonl", step));
    }
    // A resumed or rerun run reports what its own records last measured, and when.
    Optional<MetricsJsonl.Recorded> lastMeasured = Optional.empty();
    if (step > 0) {
      lastMeasured = metrics.last(HeldOut::isHeadline);
    }
    if (console != null) {
      console.resumedAt(step);
    }
    publish(step);
    Map<String, Double> val = Map.of();
    if (step == 0 && recipe.trainer().valBeforeTrain() && validator.enabled()) {
      val = validator.run(0);
      stepLog.log(0, total, val, HeldOut.value(val));
    }
    LoopRun run =
        new LoopRun(
            step, total, source, val.isEmpty() ? state.startAccuracy() : HeldOut.value(val));
    run.lastAcc = run.startAcc;
    run.isAccuracy = val.isEmpty() || HeldOut.isAccuracy(val); // until a validation says no acc
    lastMeasured.ifPresent(
        r -> {
          run.lastAcc = HeldOut.value(r.values());
          run.lastAccStep = (int) r.step();
          run.isAccuracy = HeldOut.isAccuracy(r.values());
        });
    return run;
  }

  /**
   * The stop signal that cancels step {@code step}'s prefetch (one_step_off), or null for none. No
   * prefetch across a scheduled checkpoint: the next batch is then generated by the checkpointed
   * weights, exactly as a run resumed from that checkpoint generates it.
   */
  private StopSignal prefetchUnless(StopSignal stop, int step, LoopRun run) {
    boolean prefetch = oneStepOff && step < run.total && !recipe.trainer().savesAt(step, run.total);
    return prefetch ? stop : null;
  }

  /** Validates after {@code step} when {@code trainer.test_freq} says so, into {@code m}. */
  private void validateIfDue(int step, LoopRun run, Map<String, Double> m) {
    if (!validator.enabled() || !recipe.trainer().testsAt(step, run.total)) {
      return;
    }
    PhaseTimer timer = new PhaseTimer();
    m.putAll(timer.time("testing", () -> validator.run(step)));
    m.putAll(timer.metrics());
    run.heldOut(m, step);
  }

  /**
   * What a step trained on, its metrics, and the next batch's generation when it was prefetched.
   */
  record StepOutcome(DrawnBatch batch, Map<String, Double> metrics, PendingGeneration next) {}

  /**
   * One GRPO step. {@code current} is this step's generation when it was prefetched (else null: it
   * is generated now). With {@code prefetchUnless} non-null (one_step_off), the next batch is drawn
   * and its generation started, by the weights the samplers hold now, before training, unless a
   * stop was requested; it is awaited before the new weights are published, so the samplers never
   * load weights mid-generation.
   */
  StepOutcome step(
      int step,
      PendingGeneration current,
      StopSignal prefetchUnless,
      BatchSource source,
      GenerationLauncher launcher) {
    PhaseTimer timer = new PhaseTimer();
    long start = System.nanoTime();
    if (recipe.algorithm().filterGroups().enable()) {
      return dynamicStep(step, source, launcher, timer, start);
    }
    boolean launchedHere = current == null;
    PendingGeneration cur =
        launchedHere ? timer.time("wait_gen", () -> launch(source.draw(step), launcher)) : current;
    PendingGeneration.Timed gen = timer.time("wait_gen", cur::await);
    double busy = launchedHere ? gen.seconds() : 0; // generation seconds inside this step
    PendingGeneration next = null;
    if (prefetchUnless != null && !prefetchUnless.requested()) {
      next = timer.time("wait_gen", () -> launch(source.draw(step + 1), launcher));
    }
    PolicyUpdate.Result upd = update.run(step, groups(cur.batch(), gen), timer);
    if (next != null) {
      busy += timer.time("wait_gen", next::await).seconds();
    }
    long synced = timer.time("update_weights", () -> publish(step));
    Map<String, Double> m = stepMetrics(step, gen, upd, timer, start);
    m.put(MetricNames.WEIGHT_SYNC_BYTES, (double) synced);
    double seconds = m.get(MetricNames.STEP_SECONDS);
    m.putAll(
        OverlapMetrics.of(
            gen.result().rollouts(),
            step - 1,
            m.getOrDefault("timing_s/wait_gen", 0.0),
            busy,
            seconds,
            samplers.restarts(),
            samplers.rejectedResults()));
    return new StepOutcome(cur.batch(), m, next);
  }

  /** The metrics every step reports: trainer, rewards, advantages, timings. */
  private Map<String, Double> stepMetrics(
      int step,
      PendingGeneration.Timed gen,
      PolicyUpdate.Result upd,
      PhaseTimer timer,
      long start) {
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Double> m = new LinkedHashMap<>(upd.metrics());
    m.putAll(
        StepMetrics.of(step, gen.result(), upd.scores(), upd.adv(), upd.rewardMetrics(), seconds));
    m.putAll(timer.metrics());
    m.put("timing_s/gen", gen.seconds());
    m.put(MetricNames.STEP_SECONDS, seconds);
    return m;
  }

  /** A sync step with DAPO dynamic sampling: rounds of generation until the batch is full. */
  private StepOutcome dynamicStep(
      int step, BatchSource source, GenerationLauncher launcher, PhaseTimer timer, long start) {
    DynamicSampling.Collected c =
        timer.time(
            "wait_gen",
            () ->
                dynamic.collect(
                    step,
                    source::draw,
                    (batch, round) -> launch(batch, launcher, round).await(),
                    this::prompts));
    PolicyUpdate.Result upd = update.run(step, groups(c.batch(), c.gen()), timer, c.scored());
    long synced = timer.time("update_weights", () -> publish(step));
    Map<String, Double> m = stepMetrics(step, c.gen(), upd, timer, start);
    m.put(MetricNames.WEIGHT_SYNC_BYTES, (double) synced);
    m.putAll(c.metrics());
    return new StepOutcome(c.batch(), m, null);
  }

  /**
   * Publishes the trainer's weights of {@code step} to every sampler; returns their bytes. Under
   * {@code lora_sync=adapters} only the run's first sync carries the frozen base.
   */
  private long publish(int step) {
    SnapshotContent content = SnapshotContent.WEIGHTS;
    if (LoraKeys.syncsAdapters(recipe.settings())) {
      content = basePublished ? SnapshotContent.ADAPTERS : SnapshotContent.BASE_AND_ADAPTERS;
    }
    WeightSnapshot snapshot = trainer.snapshot(step, recipe.rollout().weightDtype(), content);
    samplers.loadWeights(snapshot);
    basePublished = true;
    return snapshot.byteSize();
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

  private GenerationLauncher launcher() {
    // Ray local mode runs one actor call at a time (see GenerationLauncher), so there the
    // prefetch is generated before the update instead of beside it.
    return GenerationLauncher.of(samplers, oneStepOff && recipe.trainer().ray() != RayMode.LOCAL);
  }

  private PendingGeneration launch(DrawnBatch batch, GenerationLauncher launcher) {
    return launch(batch, launcher, 1);
  }

  /** Round {@code round} of a step's generation; later rounds (dynamic sampling) get own seeds. */
  private PendingGeneration launch(DrawnBatch batch, GenerationLauncher launcher, int round) {
    String phase = round == 1 ? "train" : "train#" + round;
    return launcher.launch(
        batch,
        requests.requests(phase, batch.step(), prompts(batch), recipe.rollout().n(), params()));
  }

  /** {@code batch}'s prompts with the rollouts {@code gen} made for them. */
  private RolloutGroups groups(DrawnBatch batch, PendingGeneration.Timed gen) {
    return new RolloutGroups(prompts(batch), gen.result().rollouts(), recipe.rollout().n());
  }

  /** The batch's prompts (tokenized), in batch order. */
  private List<PromptedExample> prompts(DrawnBatch batch) {
    List<PromptedExample> out = new ArrayList<>(batch.examples().size());
    batch.examples().forEach(e -> out.add(prompted.get(e)));
    return out;
  }

  private void say(String line) {
    if (console != null) {
      console.message(line);
    } else {
      LOG.info(line);
    }
  }
}
