package dev.javelin.grpo;

/**
 * VeRL's names of the metrics that one class writes and others read (the console bar, the run
 * registry, the report, the trainer's reductions): one spelling each. A metric only its writer
 * names keeps its literal there.
 */
public final class MetricNames {
  public static final String PG_LOSS = "actor/pg_loss";
  public static final String PG_CLIPFRAC = "actor/pg_clipfrac";
  public static final String PG_CLIPFRAC_LOWER = "actor/pg_clipfrac_lower";
  public static final String PPO_KL = "actor/ppo_kl";
  public static final String ENTROPY = "actor/entropy";
  public static final String KL_LOSS = "actor/kl_loss";
  public static final String KL_COEF = "actor/kl_coef";

  /**
   * A Mixture-of-Experts policy's router load-balancing loss (transformers' {@code aux_loss}): the
   * mean over a step's optimizer steps; dense models report none.
   */
  public static final String AUX_LOSS = "actor/aux_loss";

  /** Prefix of the training-score statistics ({@code /mean}, {@code /max}, ...). */
  public static final String SCORE = "critic/score";

  public static final String SCORE_MEAN = SCORE + "/mean";
  public static final String THROUGHPUT = "perf/throughput";
  public static final String STEP_SECONDS = "timing_s/step";

  /**
   * Bytes of the weight snapshot a step publishes to the samplers: the whole model, or under LoRA
   * with {@code lora_sync=adapters} the adapters alone.
   */
  public static final String WEIGHT_SYNC_BYTES = "perf/weight_sync_bytes";

  public static final String SFT_LOSS = "sft/loss";

  private MetricNames() {}
}
