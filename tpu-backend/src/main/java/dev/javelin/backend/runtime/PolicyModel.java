package dev.javelin.backend.runtime;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.SequenceBatch;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.batch.TokenLogProbs;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.RopeTable;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.program.Bindings;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.spmd.Mesh;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The policy on a device: weights held as device buffers between calls, and the programs the
 * framework runs (log-probs, prefill/decode, train steps via {@link PolicyOptimizer}) compiled once
 * per shape bucket. Sequence lengths are padded up to multiples of {@value
 * SequenceBatch#LENGTH_BUCKET}. Thread-confined.
 *
 * <p>On a {@link Mesh} of several chips ({@code xla:*} devices only) every value lies as its {@link
 * ShardPlan} says: weights, gradients and AdamW state split by FSDP and tensor parallelism, batches
 * by rows, KV caches by heads. Each program is compiled with those layouts and XLA's SPMD
 * partitioner splits the work; host values are split on upload and gathered on download, so callers
 * see the same tensors as on one chip.
 */
public final class PolicyModel implements AutoCloseable {
  private final Device device;
  private final ModelConfig config;
  private final DType compute;
  private final Placement placement;
  private final Map<String, DeviceBuffer> weights = new LinkedHashMap<>();
  // LoRA's A and B by name; empty for full fine-tuning, when the weights themselves train.
  private final Map<String, DeviceBuffer> adapters = new LinkedHashMap<>();
  private LoraConfig lora = LoraConfig.NONE;
  private final Map<String, DeviceBuffer> rope = new HashMap<>();
  // The bf16 copy bf16 decoding runs on, cast once per weight load; empty until first asked for.
  private final Map<String, DeviceBuffer> bf16Weights = new LinkedHashMap<>();

  private PolicyModel(Device device, ModelCheckpoint checkpoint, DType compute, Mesh mesh) {
    if (compute != DType.F32 && compute != DType.BF16) {
      throw new IllegalArgumentException("a policy computes in f32 or bf16, not " + compute);
    }
    this.device = device;
    this.config = checkpoint.config();
    this.compute = compute;
    this.placement = new Placement(device, mesh, config);
    loadWeights(checkpoint.ordered());
    RopeTable table = RopeTable.compute(config, config.maxPositions());
    rope.put(ModelPrograms.ROPE_COS, upload(ModelPrograms.ROPE_COS, table.cos()));
    rope.put(ModelPrograms.ROPE_SIN, upload(ModelPrograms.ROPE_SIN, table.sin()));
  }

  /** Uploads a checkpoint's weights to {@code device}. */
  public static PolicyModel of(Device device, ModelCheckpoint checkpoint) {
    return new PolicyModel(device, checkpoint, DType.F32, null);
  }

  /**
   * As above, with log-probs and train steps ({@link PolicyOptimizer}) computing in {@code
   * compute}: {@link DType#BF16} casts a bf16 copy from the f32 weights inside each program (mixed
   * precision; weights, gradients and AdamW state stay f32). Decoding does not follow it: a {@link
   * SlotDecoder} picks its own type, so old log-probs and the train step agree whatever the
   * samplers decode in.
   */
  public static PolicyModel of(Device device, ModelCheckpoint checkpoint, DType compute) {
    return new PolicyModel(device, checkpoint, compute, null);
  }

  /**
   * As above over the chips of {@code mesh} (axes among dp, fsdp, tp; device ids of {@code
   * device}'s client), laid out by {@link ShardPlan}. A null or one-chip mesh is the one-chip
   * model; a larger mesh needs an {@code xla:*} device and a model whose heads and MLP size divide
   * by tp.
   */
  public static PolicyModel of(
      Device device, ModelCheckpoint checkpoint, DType compute, Mesh mesh) {
    return new PolicyModel(device, checkpoint, compute, mesh);
  }

  /** Loads a Hugging Face checkpoint directory (config.json + safetensors) onto {@code device}. */
  public static PolicyModel load(Device device, Path hfDir) {
    return new PolicyModel(device, ModelCheckpoint.load(hfDir), DType.F32, null);
  }

  /** What log-probs and train steps compute in: f32, or bf16 (mixed precision). */
  public DType computeDType() {
    return compute;
  }

  public ModelConfig config() {
    return config;
  }

  public Device device() {
    return device;
  }

  /** The mesh the model was opened on; null when it runs on one chip without one. */
  public Mesh mesh() {
    return placement.mesh();
  }

  /**
   * Bytes the weights (and adapters) occupy on the chip at mesh position {@code position}, summed
   * over the blocks it holds as the device reports them; on one chip, position 0 holds everything.
   */
  public long residentBytes(int position) {
    return ResidentBytes.of(modelBuffers().values(), position);
  }

  /** Replaces every weight (e.g. a new policy version from weight sync), by HF name. */
  public void loadWeights(Map<String, Tensor.F32> byName) {
    WeightSpec.check(config, byName); // all or nothing: check every weight before replacing any
    for (WeightSpec s : WeightSpec.layout(config)) {
      replaceWeight(s.name(), upload(s.name(), byName.get(s.name())));
    }
  }

  /**
   * Puts LoRA adapters on the model (A and B by name, as {@link LoraAdapters#init} makes them):
   * from now on log-probs run through them, and train steps update them and leave the weights
   * frozen.
   */
  public void attachAdapters(LoraConfig config, Map<String, Tensor.F32> tensors) {
    if (!config.enabled()) {
      throw new IllegalArgumentException("attachAdapters needs a LoRA rank > 0");
    }
    LoraAdapters.check(config, this.config, tensors);
    adapters.values().forEach(DeviceBuffer::close);
    adapters.clear();
    for (LoraConfig.Adapter a : config.adapters(this.config)) {
      adapters.put(a.a(), upload(a.a(), tensors.get(a.a())));
      adapters.put(a.b(), upload(a.b(), tensors.get(a.b())));
    }
    this.lora = config;
  }

  /** Takes the adapters off: programs run the plain weights again. */
  public void detachAdapters() {
    adapters.values().forEach(DeviceBuffer::close);
    adapters.clear();
    this.lora = LoraConfig.NONE;
  }

  /** The adapters' configuration; {@link LoraConfig#NONE} without adapters. */
  public LoraConfig lora() {
    return lora;
  }

  /** The adapters on the host, by name (empty without adapters). */
  public Map<String, Tensor.F32> adapterTensors() {
    Map<String, Tensor.F32> host = new LinkedHashMap<>();
    adapters.forEach((k, b) -> host.put(k, (Tensor.F32) b.toHost()));
    return host;
  }

  /**
   * What a train step updates, name to shape in program order: the adapters when there are any,
   * otherwise every weight.
   */
  public Map<String, Shape> trainableShapes() {
    Map<String, Shape> out = new LinkedHashMap<>();
    (adapters.isEmpty() ? weights : adapters).forEach((k, b) -> out.put(k, b.shape()));
    return out;
  }

  /** The weights the samplers run: the base with every adapter folded in ({@code W + s·BA}). */
  public ModelCheckpoint mergedCheckpoint() {
    ModelCheckpoint base = checkpoint();
    if (adapters.isEmpty()) {
      return base;
    }
    return new ModelCheckpoint(
        config, LoraAdapters.merge(lora, config, base.weights(), adapterTensors()));
  }

  /**
   * The device buffers holding the weights, by HF name (a read-only view). A train step may replace
   * or overwrite them in place; do not hold on to one across steps.
   */
  public Map<String, DeviceBuffer> weightsOnDevice() {
    return Collections.unmodifiableMap(weights);
  }

  /** The current weights on the host, as a checkpoint. */
  public ModelCheckpoint checkpoint() {
    Map<String, Tensor.F32> host = new LinkedHashMap<>();
    weights.forEach((k, b) -> host.put(k, (Tensor.F32) b.toHost()));
    return new ModelCheckpoint(config, host);
  }

  /** Saves config.json + model.safetensors (F32 or BF16) to {@code dir}. */
  public void save(Path dir, String modelType, StorageType floatType) {
    checkpoint().save(dir, modelType, floatType);
  }

  /**
   * Log-probs and entropies (B, C) of a batch's scored tokens at temperature τ: {@code batch.ids[:,
   * 1:]} for a {@link TokenBatch}, the response tokens for a {@link PrefixBatch}.
   */
  public TokenLogProbs logProbs(SequenceBatch batch, float temperature) {
    return logProbs(batch, temperature, lora.withoutDropout()); // dropout is for train steps only
  }

  /**
   * As {@link #logProbs(SequenceBatch, float)} under the base weights alone, adapters off: the
   * frozen reference policy of a LoRA run, with no second copy of the weights.
   */
  public TokenLogProbs baseLogProbs(SequenceBatch batch, float temperature) {
    return logProbs(batch, temperature, LoraConfig.NONE);
  }

  private TokenLogProbs logProbs(SequenceBatch batch, float temperature, LoraConfig through) {
    SequenceBatch at = batch.atBucket(config);
    String key =
        "logprobs_"
            + at.shapeKey()
            + (through.enabled() ? "_lora" : "")
            + (compute == DType.F32 ? "" : "_" + compute.mlirName());
    Executable exe =
        executable(ProgramSpec.of(key, () -> at.logProbsProgram(config, through, compute)));
    List<DeviceBuffer> out = run(exe, uploads(at, temperature));
    Tensor.F32 logp = (Tensor.F32) out.get(0).toHost();
    Tensor.F32 entropy = (Tensor.F32) out.get(1).toHost();
    out.forEach(DeviceBuffer::close);
    int c = batch.scoredColumns();
    return new TokenLogProbs(
        TokenLogProbs.firstColumns(logp, c), TokenLogProbs.firstColumns(entropy, c));
  }

  /**
   * The padded length for {@code t} tokens: the next multiple of the bucket, within the rope table.
   */
  public int bucket(int t) {
    return SequenceBatch.lengthBucket(config, t);
  }

  // ------------------------------------------------------------ package API

  /**
   * The program {@code spec} names, compiled now if absent. The cache is bounded ({@link
   * ProgramLru}): fetch the executable again for each run rather than keeping it across calls that
   * may compile others.
   */
  Executable executable(ProgramSpec spec) {
    return placement.executable(spec);
  }

  /**
   * Uploads the value programs name {@code name}: to the device, or on a mesh split as the plan
   * lays that value out.
   */
  DeviceBuffer upload(String name, Tensor tensor) {
    return placement.upload(name, tensor);
  }

  /** A batch's token inputs and the temperature, uploaded. Caller closes the uploads. */
  Map<String, DeviceBuffer> uploads(SequenceBatch batch, float temperature) {
    Map<String, DeviceBuffer> in = new HashMap<>();
    batch.tokenInputs().forEach((k, v) -> in.put(k, upload(k, v)));
    in.put(
        ModelPrograms.TEMPERATURE, upload(ModelPrograms.TEMPERATURE, Tensor.scalar(temperature)));
    return in;
  }

  /** Weights + rope tables + the given per-call inputs, uploaded. Caller closes the uploads. */
  Map<String, DeviceBuffer> tokenInputs(TokenBatch batch, float temperature) {
    Map<String, DeviceBuffer> in = new HashMap<>();
    in.put(ModelPrograms.INPUT_IDS, upload(ModelPrograms.INPUT_IDS, batch.ids()));
    in.put(ModelPrograms.POSITIONS, upload(ModelPrograms.POSITIONS, batch.positions()));
    in.put(ModelPrograms.ATTENTION_MASK, upload(ModelPrograms.ATTENTION_MASK, batch.mask()));
    in.put(
        ModelPrograms.TEMPERATURE, upload(ModelPrograms.TEMPERATURE, Tensor.scalar(temperature)));
    return in;
  }

  /**
   * Runs {@code exe} with the weights, rope tables and {@code perCall} inputs bound by name, then
   * closes the per-call uploads.
   */
  List<DeviceBuffer> run(Executable exe, Map<String, DeviceBuffer> perCall) {
    try {
      return runKeeping(exe, perCall, DType.F32);
    } finally {
      perCall.values().forEach(DeviceBuffer::close);
    }
  }

  /**
   * Runs {@code exe} with caller-owned {@code perCall} buffers, which stay open; its weight
   * parameters are of {@code weightType} (the bf16 copy for bf16 decoding).
   */
  List<DeviceBuffer> runKeeping(
      Executable exe, Map<String, DeviceBuffer> perCall, DType weightType) {
    Map<String, DeviceBuffer> named = new HashMap<>(weightsIn(weightType));
    named.putAll(adapters);
    named.putAll(rope);
    named.putAll(perCall);
    return exe.run(Bindings.bind(exe.program(), named));
  }

  /**
   * The weights as {@code dtype}: the f32 buffers themselves, or their bf16 copy, made on the
   * device by one cast program after each weight change and then reused by every prefill and decode
   * step.
   */
  Map<String, DeviceBuffer> weightsIn(DType dtype) {
    if (dtype == DType.F32) {
      return weights;
    }
    ModelPrograms.checkDecodeType(dtype);
    if (bf16Weights.isEmpty()) {
      Executable cast =
          executable(
              ProgramSpec.of(
                      "cast_weights" + ModelPrograms.suffix(dtype),
                      () -> ModelPrograms.castWeights(config, dtype))
                  .outputs(weightNames()));
      List<DeviceBuffer> out = cast.run(Bindings.bind(cast.program(), weights));
      List<WeightSpec> layout = WeightSpec.layout(config); // the cast's output order
      for (int i = 0; i < out.size(); i++) {
        bf16Weights.put(layout.get(i).name(), out.get(i));
      }
    }
    return bf16Weights;
  }

  Map<String, DeviceBuffer> ropeBuffers() {
    return rope;
  }

  Map<String, DeviceBuffer> weightBuffers() {
    return weights;
  }

  /** Weights and adapters by name: what a program's model parameters bind to. */
  Map<String, DeviceBuffer> modelBuffers() {
    Map<String, DeviceBuffer> all = new HashMap<>(weights);
    all.putAll(adapters);
    return all;
  }

  /** Swaps in a trained tensor: an adapter's A or B when it is one, else a weight. */
  void replaceTrainable(String name, DeviceBuffer buffer) {
    if (adapters.containsKey(name)) {
      DeviceBuffer old = adapters.put(name, buffer);
      if (old != null && old != buffer) {
        old.close();
      }
    } else {
      replaceWeight(name, buffer);
    }
  }

  void replaceWeight(String name, DeviceBuffer buffer) {
    dropCastWeights();
    DeviceBuffer old = weights.put(name, buffer);
    if (old != null && old != buffer) {
      old.close();
    }
  }

  List<String> weightNames() {
    return new ArrayList<>(weights.keySet());
  }

  private void dropCastWeights() {
    bf16Weights.values().forEach(DeviceBuffer::close);
    bf16Weights.clear();
  }

  @Override
  public void close() {
    dropCastWeights();
    placement.close();
    weights.values().forEach(DeviceBuffer::close);
    adapters.values().forEach(DeviceBuffer::close);
    rope.values().forEach(DeviceBuffer::close);
  }
}
