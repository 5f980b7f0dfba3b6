package dev.javelin.recipes.config;

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
 * @param weightDtype wire type of weight sync
 * @param valN responses per validation prompt
 * @param valDoSample sample in validation (else greedy)
 * @param valTemperature validation τ when sampling
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
    int valN,
    boolean valDoSample,
    double valTemperature) {

  /** Validates each key. */
  public RolloutConfig {
    String p = RecipeSchema.ROLLOUT;
    Checks.positive(p + "n", n);
    Checks.require(
        temperature > 0 && Double.isFinite(temperature), p + "temperature", "must be > 0");
    Checks.require(topK >= -1, p + "top_k", "must be -1 (off) or >= 0");
    Checks.require(topP > 0 && topP <= 1, p + "top_p", "must be in (0, 1]");
    Checks.require(minP >= 0 && minP < 1, p + "min_p", "must be in [0, 1)");
    Checks.require(logProbMicroBatchSize >= 0, p + "log_prob_micro_batch_size_per_gpu", ">= 1");
    Checks.positive(p + "max_num_seqs", maxNumSeqs);
    Objects.requireNonNull(weightDtype, "weightDtype");
    Checks.positive(p + "val_kwargs.n", valN);
    Checks.require(valTemperature > 0, p + "val_kwargs.temperature", "must be > 0");
    Checks.require(
        valN == 1 || valDoSample,
        p + "val_kwargs.n",
        "n > 1 needs val_kwargs.do_sample=true (greedy responses would all be equal)");
  }

  static RolloutConfig from(Settings s) {
    String p = RecipeSchema.ROLLOUT;
    return new RolloutConfig(
        s.getInt(p + "n"),
        s.getDouble(p + "temperature"),
        s.getInt(p + "top_k"),
        s.getDouble(p + "top_p"),
        s.getDouble(p + "min_p"),
        s.isSet(p + "log_prob_micro_batch_size_per_gpu")
            ? Checks.positive(
                p + "log_prob_micro_batch_size_per_gpu",
                s.getInt(p + "log_prob_micro_batch_size_per_gpu"))
            : 0,
        s.getInt(p + "max_num_seqs"),
        WireType.parse(s.getString(p + "weight_dtype")),
        s.getInt(p + "val_kwargs.n"),
        s.getBool(p + "val_kwargs.do_sample"),
        s.getDouble(p + "val_kwargs.temperature"));
  }
}
