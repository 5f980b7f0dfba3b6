package dev.javelin.recipes.config;

import static dev.javelin.recipes.config.KeySpec.of;
import static dev.javelin.recipes.config.KeySpec.optional;
import static dev.javelin.recipes.config.KeyType.BOOL;
import static dev.javelin.recipes.config.KeyType.DOUBLE;
import static dev.javelin.recipes.config.KeyType.INT;
import static dev.javelin.recipes.config.KeyType.LONG;
import static dev.javelin.recipes.config.KeyType.MAP;
import static dev.javelin.recipes.config.KeyType.STRING;
import static dev.javelin.recipes.config.KeyType.STRING_LIST;

import dev.javelin.grpo.AdvantageEstimator;
import dev.javelin.grpo.KlEstimator;
import dev.javelin.grpo.LossAggMode;
import dev.javelin.grpo.PolicyLossMode;
import dev.javelin.grpo.RecipeKeyed;
import java.util.List;

/**
 * Every key a recipe may set, with VeRL's names where the concept is the same ({@code
 * data.train_batch_size}, {@code actor_rollout_ref.actor.optim.lr}, {@code trainer.save_freq},
 * ...). Javelin-only keys live under the same sections ({@code actor_rollout_ref.model.init.*} for
 * a random tiny model, {@code data.synthetic.*} for generated tasks, {@code sft.*}).
 */
public final class RecipeSchema {
  /** Shorthands for the three sections VeRL nests under {@code actor_rollout_ref}. */
  static final String MODEL = "actor_rollout_ref.model.";

  static final String ACTOR = "actor_rollout_ref.actor.";
  static final String ROLLOUT = "actor_rollout_ref.rollout.";

  private static final Schema SCHEMA = build();

  private RecipeSchema() {}

  /** The schema. */
  public static Schema schema() {
    return SCHEMA;
  }

  private static Schema build() {
    Schema.Builder b = Schema.builder();
    data(b);
    model(b);
    actor(b);
    rollout(b);
    algorithm(b);
    trainer(b);
    b.add(optional("custom_reward_function.path", STRING, "a reward's .java file, jar or classes"));
    b.add(optional("custom_reward_function.class", STRING, "a RewardFunction class name"));
    b.add(optional("custom_reward_function.name", STRING, "a registered reward or class name"));
    b.add(optional("custom_reward_function.reward_kwargs", MAP, "keyword arguments"));
    b.add(of("reward.timeout_s", DOUBLE, 10.0, "time limit of one reward call, seconds"));
    b.add(optional("sft.output_dir", STRING, "where `sft` writes the final model (HF layout)"));
    b.add(optional("sft.stop_at_accuracy", DOUBLE, "sft stops once held-out greedy acc >= this"));
    return b.build();
  }

  private static void data(Schema.Builder b) {
    b.add(optional("data.train_files", STRING_LIST, "training files (jsonl or VeRL parquet)"));
    b.add(optional("data.val_files", STRING_LIST, "validation files"));
    b.add(
        of(
            "data.file_format",
            KeyType.oneOf("auto", "gsm8k", "math500", "parquet"),
            "auto",
            "how train/val files are read; auto picks by extension and name"));
    b.add(optional("data.prompt_template", STRING, "raw, gsm8k, math or countdown"));
    b.add(
        of("data.prompt_prefix", STRING, "", "text put before every rendered prompt, e.g. <bos>"));
    b.add(
        of(
            "data.synthetic.task",
            KeyType.oneOf("none", "arith", "countdown"),
            "none",
            "a generated task instead of files"));
    b.add(of("data.synthetic.train_size", INT, 20_000, "generated training prompts"));
    b.add(of("data.synthetic.val_size", INT, 500, "generated held-out prompts"));
    b.add(of("data.synthetic.seed", LONG, 1L, "seed of the generated split"));
    b.add(of("data.synthetic.digits", INT, 3, "arith: digits per operand"));
    b.add(of("data.synthetic.operators", STRING_LIST, List.of("+"), "arith: of + - *"));
    b.add(of("data.train_batch_size", INT, 256, "prompts per step"));
    b.add(of("data.max_prompt_length", INT, 512, "prompt tokens, at most"));
    b.add(of("data.max_response_length", INT, 512, "response tokens, at most"));
    b.add(of("data.shuffle", BOOL, true, "reshuffle prompts every epoch"));
    b.add(of("data.seed", LONG, 1L, "shuffle seed"));
    b.add(of("data.filter_overlong_prompts", BOOL, true, "drop prompts over max_prompt_length"));
    b.add(of("data.val_max_samples", INT, -1, "validation prompts used; -1 for all"));
  }

  private static void model(Schema.Builder b) {
    b.add(optional(MODEL + "path", STRING, "HF checkpoint dir (config.json + safetensors)"));
    b.add(optional(MODEL + "tokenizer_path", STRING, "tokenizer dir/file, or 'char'"));
    b.add(optional(MODEL + "warmup_recipe", STRING, "recipe run first when path is missing"));
    b.add(of(MODEL + "model_type", KeyType.oneOf("llama", "qwen2"), "llama", "config.json type"));
    b.add(of(MODEL + "init.hidden", INT, 128, "random init: width d"));
    b.add(of(MODEL + "init.intermediate", INT, 512, "random init: MLP width"));
    b.add(of(MODEL + "init.layers", INT, 4, "random init: blocks"));
    b.add(of(MODEL + "init.heads", INT, 4, "random init: query heads"));
    b.add(of(MODEL + "init.kv_heads", INT, 4, "random init: key/value heads"));
    b.add(of(MODEL + "init.max_positions", INT, 64, "random init: context length"));
    b.add(of(MODEL + "init.rope_theta", DOUBLE, 10_000.0, "random init: RoPE base"));
    b.add(of(MODEL + "init.tie_word_embeddings", BOOL, true, "random init: tied LM head"));
    b.add(of(MODEL + "init.seed", LONG, 0L, "random init: seed"));
    b.add(of(MODEL + "init.std", DOUBLE, 0.02, "random init: weight std"));
  }

  private static void actor(Schema.Builder b) {
    b.add(of(ACTOR + "optim.lr", DOUBLE, 1e-6, "learning rate"));
    b.add(of(ACTOR + "optim.weight_decay", DOUBLE, 0.01, "AdamW weight decay"));
    b.add(of(ACTOR + "optim.beta1", DOUBLE, 0.9, "AdamW β1"));
    b.add(of(ACTOR + "optim.beta2", DOUBLE, 0.999, "AdamW β2"));
    b.add(of(ACTOR + "optim.lr_warmup_steps", INT, -1, "warmup steps; -1 uses the ratio"));
    b.add(of(ACTOR + "optim.lr_warmup_steps_ratio", DOUBLE, 0.0, "warmup share of all steps"));
    b.add(
        of(
            ACTOR + "optim.warmup_style",
            KeyType.oneOf("constant", "cosine"),
            "constant",
            "LR after warmup"));
    b.add(of(ACTOR + "optim.min_lr_ratio", DOUBLE, 0.0, "cosine floor, share of lr"));
    b.add(of(ACTOR + "grad_clip", DOUBLE, 1.0, "global gradient-norm clip"));
    b.add(of(ACTOR + "ppo_mini_batch_size", INT, 256, "prompts per optimizer step"));
    b.add(optional(ACTOR + "ppo_micro_batch_size_per_gpu", INT, "samples per fwd/bwd"));
    b.add(of(ACTOR + "ppo_epochs", INT, 1, "passes over each batch"));
    b.add(of(ACTOR + "shuffle", BOOL, false, "shuffle samples each epoch"));
    b.add(of(ACTOR + "clip_ratio", DOUBLE, 0.2, "PPO ε"));
    b.add(optional(ACTOR + "clip_ratio_low", DOUBLE, "ε_low; default clip_ratio"));
    b.add(optional(ACTOR + "clip_ratio_high", DOUBLE, "ε_high; default clip_ratio"));
    b.add(of(ACTOR + "clip_ratio_c", DOUBLE, 3.0, "dual-clip bound"));
    b.add(of(ACTOR + "loss_agg_mode", choice(LossAggMode.class), "token-mean", "aggregation"));
    b.add(of(ACTOR + "policy_loss.loss_mode", choice(PolicyLossMode.class), "vanilla", "PG loss"));
    b.add(of(ACTOR + "entropy_coeff", DOUBLE, 0.0, "entropy bonus"));
    b.add(of(ACTOR + "use_kl_loss", BOOL, false, "KL(π‖π_ref) loss (keeps a reference)"));
    b.add(of(ACTOR + "kl_loss_coef", DOUBLE, 0.001, "β of the KL loss"));
    b.add(of(ACTOR + "kl_loss_type", choice(KlEstimator.class), "low_var_kl", "KL estimator"));
  }

  private static void rollout(Schema.Builder b) {
    b.add(of(ROLLOUT + "n", INT, 1, "responses per prompt"));
    b.add(of(ROLLOUT + "temperature", DOUBLE, 1.0, "sampling temperature"));
    b.add(of(ROLLOUT + "top_k", INT, -1, "top-k; -1 off"));
    b.add(of(ROLLOUT + "top_p", DOUBLE, 1.0, "nucleus p; 1 off"));
    b.add(of(ROLLOUT + "min_p", DOUBLE, 0.0, "min-p; 0 off"));
    b.add(optional(ROLLOUT + "log_prob_micro_batch_size_per_gpu", INT, "samples per pass"));
    b.add(of(ROLLOUT + "max_num_seqs", INT, 256, "sequences decoded at once per sampler"));
    b.add(of(ROLLOUT + "weight_dtype", KeyType.oneOf("f32", "bf16"), "f32", "weight-sync wire"));
    b.add(of(ROLLOUT + "val_kwargs.n", INT, 1, "responses per validation prompt"));
    b.add(of(ROLLOUT + "val_kwargs.do_sample", BOOL, false, "sample (else greedy) in validation"));
    b.add(of(ROLLOUT + "val_kwargs.temperature", DOUBLE, 1.0, "validation temperature"));
  }

  private static void algorithm(Schema.Builder b) {
    b.add(
        of(
            "algorithm.adv_estimator",
            choice(AdvantageEstimator.class),
            "grpo",
            "advantage estimator"));
    b.add(of("algorithm.norm_adv_by_std_in_grpo", BOOL, true, "divide by the group std"));
    b.add(of("algorithm.gamma", DOUBLE, 1.0, "discount γ"));
    b.add(of("algorithm.lam", DOUBLE, 1.0, "GAE λ (kept for compatibility)"));
    KlInRewardKeys.declare(b);
    RolloutCorrectionKeys.declare(b);
    OverlongBufferKeys.declare(b);
    FilterGroupsKeys.declare(b);
  }

  private static void trainer(Schema.Builder b) {
    b.add(of("trainer.project_name", STRING, "javelin", "project"));
    b.add(of("trainer.experiment_name", STRING, "run", "experiment"));
    b.add(optional("trainer.total_training_steps", INT, "steps; default epochs × batches"));
    b.add(of("trainer.total_epochs", INT, 1, "epochs when total_training_steps is unset"));
    b.add(of("trainer.save_freq", INT, -1, "checkpoint every N steps; -1 only at the end"));
    b.add(of("trainer.test_freq", INT, -1, "validate every N steps; -1 only at the end"));
    b.add(of("trainer.val_before_train", BOOL, true, "validate before the first step"));
    b.add(optional("trainer.default_local_dir", STRING, "checkpoints/<project>/<experiment>"));
    b.add(of("trainer.resume_mode", STRING, "auto", "auto, disable or a global_step_N dir"));
    b.add(of("trainer.max_actor_ckpt_to_keep", INT, 0, "checkpoints kept; 0 keeps all"));
    b.add(of("trainer.seed", LONG, 1L, "seed of sampling and trainer shuffles"));
    b.add(of("trainer.device", STRING, "cpu", "device spec for trainer and samplers"));
    b.add(of("trainer.samplers", INT, 2, "sampler actors (--samplers N)"));
    b.add(
        of(
            "trainer.ray",
            KeyType.oneOf("local", "cluster", "off"),
            "local",
            "Ray local mode, a Ray cluster, or plain objects"));
    b.add(optional("trainer.ray_address", STRING, "cluster address; default $RAY_ADDRESS"));
    b.add(of("trainer.max_restarts", INT, 3, "restarts of a dead sampler actor (cluster)"));
    b.add(
        of(
            "trainer.rollout_mode",
            KeyType.oneOf("sync", "one_step_off"),
            "sync",
            "sync, or generate step k+1 while training step k"));
    b.add(
        of(
            "trainer.logger",
            STRING_LIST,
            List.of("console"),
            "console, jsonl, tensorboard and/or mlflow (metrics.jsonl is always written)"));
  }

  private static <E extends Enum<E> & RecipeKeyed> KeyType choice(Class<E> type) {
    return KeyType.oneOf(RecipeKeyed.allKeys(type).toArray(new String[0]));
  }
}
