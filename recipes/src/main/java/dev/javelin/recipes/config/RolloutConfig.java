package dev.javelin.recipes.config;

import dev.javelin.backend.DType;
import dev.javelin.weightsync.WireType;
import java.util.Objects;

/**
 * {@code actor_rollout_ref.rollout.*}: how samplers generate.
 *
 * @param n responses per prompt
 * @param temperature τ
 * @param topK -1 off
 * @param topP 1 off
 * @param minP 0 off
 * @param logProbMicroBatchSize samples per old/ref log-prob pass; 0 means the actor's micro-batch
 * @param maxNumSeqs sequences one sampler decodes at once
 * @param weightDtype wire type of weight sync (what a snapshot carries to the samplers)
 * @param dtype what samplers decode in and keep their KV cache in (f32 or bf16), whatever the
 *     weights came over the wire as
 * @param valN responses per validation prompt
 * @param valDoSample sample in validation (else greedy)
 * @param valTemperature validation τ when sampling
 * @param valTopK validation top-k when sampling; -1 off
 * @param valTopP validation nucleus p when sampling; 1 off
 */
public record RolloutConfig(
    int n,
    double temperature,
    int topK,
    double topP,
    double minP,
    int logProbMicroBatchSize,
    int maxNumSeqs,
    WireType weightDtype,
    DType dtype,
    int valN,
    boolean valDoSample,
    double valTemperature,
    int valTopK,
    double valTopP) {
  static final KeySet KEYS = new KeySet("actor_rollout_ref.rollout.");
  public static final KeySpec N = KEYS.of("n", KeyType.INT, 1, "responses per prompt");
  public static final KeySpec TEMPERATURE =
      KEYS.of("temperature", KeyType.DOUBLE, 1.0, "sampling temperature");
  public static final KeySpec TOP_K = KEYS.of("top_k", KeyType.INT, -1, "top-k; -1 off");
  public static final KeySpec TOP_P = KEYS.of("top_p", KeyType.DOUBLE, 1.0, "nucleus p; 1 off");
  public static final KeySpec MIN_P = KEYS.of("min_p", KeyType.DOUBLE, 0.0, "min-p; 0 off");
  public static final KeySpec LOG_PROB_MICRO_BATCH_SIZE_PER_GPU =
      KEYS.optional("log_prob_micro_batch_size_per_gpu", KeyType.INT, "samples per pass");
  public static final KeySpec MAX_NUM_SEQS =
      KEYS.of("max_num_seqs", KeyType.INT, 256, "sequences decoded at once per sampler");
  public static final KeySpec WEIGHT_DTYPE =
      KEYS.of("weight_dtype", KeyType.oneOf("f32", "bf16"), "f32", "weight-sync wire");
  public static final KeySpec DTYPE =
      KEYS.optional(
          "dtype",
          MixedPrecisionKeys.DTYPES,
          "sampler compute type and KV cache; default bf16 on tpu and xla:gpu, fp32 elsewhere");
  public static final KeySpec VAL_KWARGS_N =
      KEYS.of("val_kwargs.n", KeyType.INT, 1, "responses per validation prompt");
  public static final KeySpec VAL_KWARGS_DO_SAMPLE =
      KEYS.of("val_kwargs.do_sample", KeyType.BOOL, false, "sample (else greedy) in validation");
  public static final KeySpec VAL_KWARGS_TEMPERATURE =
      KEYS.of("val_kwargs.temperature", KeyType.DOUBLE, 1.0, "validation temperature");
  public static final KeySpec VAL_KWARGS_TOP_K =
      KEYS.of("val_kwargs.top_k", KeyType.INT, -1, "validation top-k");
  public static final KeySpec VAL_KWARGS_TOP_P =
      KEYS.of("val_kwargs.top_p", KeyType.DOUBLE, 1.0, "validation top-p");

  /** Validates each key. */
  public RolloutConfig {
    Checks.positive(N.name(), n);
    Checks.require(
        temperature > 0 && Double.isFinite(temperature), TEMPERATURE.name(), "must be > 0");
    Checks.require(topK >= -1, TOP_K.name(), "must be -1 (off) or >= 0");
    Checks.require(topP > 0 && topP <= 1, TOP_P.name(), "must be in (0, 1]");
    Checks.require(minP >= 0 && minP < 1, MIN_P.name(), "must be in [0, 1)");
    Checks.require(logProbMicroBatchSize >= 0, LOG_PROB_MICRO_BATCH_SIZE_PER_GPU.name(), ">= 1");
    Checks.positive(MAX_NUM_SEQS.name(), maxNumSeqs);
    Objects.requireNonNull(weightDtype, "weightDtype");
    Objects.requireNonNull(dtype, "dtype");
    Checks.positive(VAL_KWARGS_N.name(), valN);
    Checks.require(valTemperature > 0, VAL_KWARGS_TEMPERATURE.name(), "must be > 0");
    Checks.require(valTopK >= -1, VAL_KWARGS_TOP_K.name(), "must be -1 (off) or >= 0");
    Checks.require(valTopP > 0 && valTopP <= 1, VAL_KWARGS_TOP_P.name(), "must be in (0, 1]");
    Checks.require(
        valN == 1 || valDoSample,
        VAL_KWARGS_N.name(),
        "n > 1 needs val_kwargs.do_sample=true (greedy responses would all be equal)");
  }

  static RolloutConfig from(Settings s) {
    return new RolloutConfig(
        s.getInt(N),
        s.getDouble(TEMPERATURE),
        s.getInt(TOP_K),
        s.getDouble(TOP_P),
        s.getDouble(MIN_P),
        s.positiveIntOrZero(LOG_PROB_MICRO_BATCH_SIZE_PER_GPU),
        s.getInt(MAX_NUM_SEQS),
        WireType.parse(s.getString(WEIGHT_DTYPE)),
        MixedPrecisionKeys.typeOf(s, DTYPE),
        s.getInt(VAL_KWARGS_N),
        s.getBool(VAL_KWARGS_DO_SAMPLE),
        s.getDouble(VAL_KWARGS_TEMPERATURE),
        s.getInt(VAL_KWARGS_TOP_K),
        s.getDouble(VAL_KWARGS_TOP_P));
  }
}
