package dev.javelin.recipes.driver;

import com.sun.management.OperatingSystemMXBean;
import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.runtime.TrainMemory;
import dev.javelin.recipes.config.ActorConfig;
import dev.javelin.recipes.config.ConfigException;
import dev.javelin.recipes.config.DataConfig;
import dev.javelin.recipes.config.LoraKeys;
import dev.javelin.recipes.config.ModelSection;
import dev.javelin.recipes.config.RecipeConfig;
import dev.javelin.recipes.config.RolloutConfig;
import dev.javelin.recipes.config.TrainerSection;
import dev.javelin.recipes.config.TrainerSection.RayMode;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * What a run keeps in the heap, estimated from the model and the recipe before anything starts, so
 * a run that will not fit says so at once, naming the knobs, instead of dying with an {@code
 * OutOfMemoryError} inside an actor. All in f32 bytes:
 *
 * <ul>
 *   <li>trainer: weights, AdamW m and v, the gradient sum and one micro-batch's gradients (20
 *       B/param), the published snapshot (+4), and a reference copy when {@code use_kl_loss} is on
 *       (+4); with LoRA adapters the frozen base, the merged weights and their snapshot (12
 *       B/param) and the adapters' weights, moments and gradients (20 B per adapter parameter), the
 *       reference being the base;
 *   <li>each sampler: its weights (4 B/param), with bf16 decoding ({@code rollout.dtype}) their
 *       bf16 copy too (+4: a float array on the cpu device, like bf16 KV cache values, so the cache
 *       stays 4 B a value), and a KV cache of one row per request of a step (at most {@code
 *       max_num_seqs}) of {@code max_prompt_length + max_response_length} positions;
 *   <li>weight sync in flight: four more copies of the snapshot in its wire type (Ray's stored and
 *       returned copies of the trainer's result, the object the driver publishes, the bytes a
 *       sampler receives) and the new f32 weights a sampler decodes before it drops the old ones;
 *   <li>one micro-batch's activations kept for the backward pass and its logits, as {@link
 *       TrainMemory} states them for the rematerialisation policy the trainer uses ({@code
 *       -Djavelin.remat}: elementwise by default, blocks for per-layer recomputation).
 * </ul>
 *
 * <p>It is an estimate of the live set, not of the garbage around it: a heap below it cannot work
 * and is refused; the heap it suggests, {@link #HEADROOM} times the estimate, runs without long GC
 * pauses. Activations are counted for the dense layout, an upper bound for the prompt-sharing one.
 * With LoRA and {@code lora_sync=adapters} each sampler also keeps the base (+4 B/param) and a sync
 * moves the adapters; the first sync's whole model is counted against the train step's activations,
 * which are not live then.
 *
 * <p>{@code offHeap} is the process's memory outside the heap ({@link #offHeap(ModelConfig,
 * RecipeConfig, int)}): peak RSS measured 1.3-1.75 times the heap estimate, up to 2.6 GB over the
 * heap, before it was counted. The launcher caps the heap at {@link #maxHeapOn} so the whole
 * process stays inside the machine's memory.
 */
public record MemoryBudget(
    long trainer, long samplers, long weightSync, long activations, long logits, long offHeap) {
  /** Heap per byte of estimated live set that the check asks for. */
  public static final double HEADROOM = 1.25;

  /**
   * Process memory outside the heap that does not grow with the model: metaspace and code cache,
   * thread stacks (Ray's and the engine's pools), the native libraries (Ray's core worker, JavaCPP,
   * OpenBLAS's code), and the collector's own tables.
   */
  static final long FIXED_OFF_HEAP = 512L << 20;

  /** OpenBLAS's per-thread GEMM buffers, one thread per core. */
  static final long BLAS_PER_CORE = 64L << 20;

  /** The collector's card tables and remembered sets, per byte of heap. */
  static final double GC_PER_HEAP_BYTE = 0.05;

  /** The share of the machine's memory a run may take, leaving the rest to the system. */
  static final double MACHINE_SHARE = 0.9;

  /** The estimate for {@code recipe} with model {@code c}, for the processes of one JVM. */
  public static MemoryBudget of(ModelConfig c, RecipeConfig recipe) {
    long p = c.parameterCount();
    boolean ref = recipe.actor().loss().useKlLoss();
    LoraConfig lora = recipe.lora();
    long trainer =
        lora.enabled()
            ? p * 4L * 3 + adapterParameters(lora, c) * 4L * 5
            : p * 4L * (6 + (ref ? 1 : 0));
    int positions = recipe.data().maxPromptLength() + recipe.data().maxResponseLength();
    // a sampler opens as many cache rows as it has requests, up to max_num_seqs
    long samplers = samplers(c, recipe, recipe.data().trainBatchSize() * recipe.rollout().n());
    int micro = recipe.actor().ppoMicroBatchSize();
    int rows = micro > 0 ? micro : recipe.actor().ppoMiniBatchSize() * recipe.rollout().n();
    // the train step's own terms, under the policy the trainer's optimizer will use
    Remat remat = recipe.model().remat();
    long activations = TrainMemory.activations(c, rows, positions, remat);
    long logits = TrainMemory.logits(c, rows, positions, remat);
    long sync = weightSync(c, recipe);
    if (lora.enabled() && LoraKeys.syncsAdapters(recipe.settings())) {
      // each sampler keeps the base to merge into; only the first sync carries the whole model,
      // before any train step, so its peak and the activations' are not at the same time
      samplers += (long) recipe.trainer().samplers() * p * 4L;
      long adapters = adapterParameters(lora, c);
      long adapterSync = 4 * adapters * recipe.rollout().weightDtype().byteSize() + adapters * 4L;
      sync = Math.max(adapterSync, sync - activations - logits);
    }
    return new MemoryBudget(
        trainer,
        samplers,
        sync,
        activations,
        logits,
        offHeap(c, recipe, recipe.trainer().samplers() + 1));
  }

  /**
   * Memory outside the heap: {@link #FIXED_OFF_HEAP}, OpenBLAS's buffers per core, and on host
   * devices ({@code cpu}, {@code ref}, {@code xla:cpu}) a native f32 copy of each model's weights
   * that matrix products read ({@code holders}: the trainer and every sampler in this JVM).
   */
  private static long offHeap(ModelConfig c, RecipeConfig recipe, int holders) {
    String device = recipe.trainer().device();
    boolean host = device.equals("cpu") || device.equals("ref") || device.equals("xla:cpu");
    long weights = host ? (long) holders * c.parameterCount() * 4L : 0;
    return FIXED_OFF_HEAP + Runtime.getRuntime().availableProcessors() * BLAS_PER_CORE + weights;
  }

  /**
   * The estimate for evaluating {@code prompts} validation prompts: the samplers with a cache row
   * per validation request, no train step, and what publishes the weights. On a cluster that is a
   * trainer; in this JVM, in the {@code trainer} term, the checkpoint the driver loads (f32) and
   * the snapshot it builds from it.
   */
  public static MemoryBudget forEval(ModelConfig c, RecipeConfig recipe, int prompts) {
    long samplers = samplers(c, recipe, prompts * recipe.rollout().valN());
    long p = c.parameterCount();
    long publisher =
        recipe.trainer().ray() == RayMode.CLUSTER
            ? of(c, recipe).trainer()
            : p * 4L + p * recipe.rollout().weightDtype().byteSize();
    int holders = recipe.trainer().samplers() + 1;
    return new MemoryBudget(
        publisher, samplers, weightSync(c, recipe), 0, 0, offHeap(c, recipe, holders));
  }

  /** A, B of every adapter: rank x (in + out) each. */
  private static long adapterParameters(LoraConfig lora, ModelConfig c) {
    long n = 0;
    for (LoraConfig.Adapter a : lora.adapters(c)) {
      n += (long) a.rank() * (a.in() + a.out());
    }
    return n;
  }

  /** The transient of one weight publish (see the class comment); measured on SmolLM2-135M. */
  private static long weightSync(ModelConfig c, RecipeConfig recipe) {
    long wire = c.parameterCount() * recipe.rollout().weightDtype().byteSize();
    return 4 * wire + c.parameterCount() * 4L;
  }

  /** Every sampler's weights and a cache row per request (up to max_num_seqs) of a step. */
  private static long samplers(ModelConfig c, RecipeConfig recipe, int requests) {
    int positions = recipe.data().maxPromptLength() + recipe.data().maxResponseLength();
    int cacheRows = Math.min(recipe.rollout().maxNumSeqs(), requests);
    long kvCache = 2L * c.layers() * cacheRows * c.kvHeads() * positions * c.headDim() * 4L;
    int copies = recipe.rollout().dtype() == DType.BF16 ? 2 : 1; // + the bf16 decoding copy
    return (long) recipe.trainer().samplers() * (c.parameterCount() * 4L * copies + kvCache);
  }

  /** The estimated live set in bytes. */
  public long total() {
    return trainer + samplers + weightSync + activations + logits;
  }

  /** The heap this estimate asks for, in bytes. */
  public long wantedHeap() {
    return (long) (total() * HEADROOM);
  }

  /**
   * The process's memory (what the kernel counts) with a heap of {@code heap} bytes in full use:
   * the heap, the collector's tables for it, and {@link #offHeap}.
   */
  public long processBytes(long heap) {
    return (long) (heap * (1 + GC_PER_HEAP_BYTE)) + offHeap;
  }

  /**
   * The largest heap whose process still fits in {@link #MACHINE_SHARE} of {@code machineBytes}:
   * the launcher's cap, so that the kernel does not kill a run that grows to its heap.
   */
  public long maxHeapOn(long machineBytes) {
    return Math.max(0, (long) ((machineBytes * MACHINE_SHARE - offHeap) / (1 + GC_PER_HEAP_BYTE)));
  }

  /** This machine's (or container's) memory in bytes. */
  public static long machineBytes() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
  }

  /** One line for the start of a run. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "memory estimate: %s (trainer %s, samplers %s, weight sync %s, activations %s, logits %s)"
            + " in the heap + %s outside it (native weight copies, OpenBLAS, metaspace, stacks)",
        gib(total()),
        gib(trainer),
        gib(samplers),
        gib(weightSync),
        gib(activations),
        gib(logits),
        gib(offHeap));
  }

  /**
   * Fails before the first step when a heap of {@code maxHeap} bytes is too small, or when even the
   * live set with its memory outside the heap does not fit this machine, with what to set and which
   * recipe keys shrink the need.
   */
  public void check(long maxHeap) {
    check(maxHeap, machineBytes());
  }

  /** {@link #check(long)} on a machine of {@code machineBytes}. */
  public void check(long maxHeap, long machineBytes) {
    if (processBytes(total()) > machineBytes * MACHINE_SHARE) {
      throw new ConfigException(
          describe()
              + ": about "
              + gib(processBytes(total()))
              + " in all, more than this machine's "
              + gib(machineBytes)
              + " allow; "
              + SHRINK);
    }
    if (maxHeap >= total()) {
      return;
    }
    long gb = (Math.min(wantedHeap(), maxHeapOn(machineBytes)) + (1L << 30) - 1) >> 30;
    throw new ConfigException(
        describe()
            + " does not fit this JVM's "
            + gib(maxHeap)
            + " heap: run with JAVELIN_HEAP="
            + gb
            + "g, or "
            + SHRINK);
  }

  /** The recipe keys that shrink a run, for the messages above. */
  private static final String SHRINK =
      "lower "
          + ActorConfig.PPO_MICRO_BATCH_SIZE_PER_GPU.name()
          + ", "
          + RolloutConfig.MAX_NUM_SEQS.name()
          + ", "
          + TrainerSection.SAMPLERS.name()
          + ", "
          + DataConfig.MAX_RESPONSE_LENGTH.name()
          + " or "
          + DataConfig.MAX_PROMPT_LENGTH.name()
          + ", or set "
          + ModelSection.ENABLE_GRADIENT_CHECKPOINTING.name()
          + "=true";

  private static String gib(long bytes) {
    return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
  }
}
