package dev.javelin.recipes.config;

import dev.javelin.backend.model.LoraConfig;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * VeRL's LoRA keys under {@code actor_rollout_ref.model.*}: {@code lora_rank} > 0 puts adapters on
 * the {@code target_modules} linear layers (less {@code exclude_modules}) and trains only them;
 * {@code lora_rank=0} is full fine-tuning. {@code use_shm} has no effect ({@link VerlEngineKeys}).
 */
public final class LoraKeys {
  private static final String P = "actor_rollout_ref.model.";
  private static final String ALL_LINEAR = "all-linear";
  static final KeySet KEYS = new KeySet();
  public static final KeySpec LORA_RANK =
      KEYS.of(P + "lora_rank", KeyType.INT, 0, "LoRA rank r; 0 = full fine-tuning");
  public static final KeySpec LORA_ALPHA =
      KEYS.of(P + "lora_alpha", KeyType.DOUBLE, 16.0, "LoRA alpha: adapters scale by alpha/r");
  public static final KeySpec TARGET_MODULES =
      KEYS.of(
          P + "target_modules",
          KeyType.STRING_LIST,
          List.of(ALL_LINEAR),
          "linear layers that get adapters: all-linear or of " + LoraConfig.MODULES);
  public static final KeySpec EXCLUDE_MODULES =
      KEYS.of(
          P + "exclude_modules",
          KeyType.STRING_LIST,
          List.of(),
          "linear layers left without adapters");
  public static final KeySpec LORA_SEED =
      KEYS.of(P + "lora_seed", KeyType.LONG, 0L, "seed of the adapters' A initialisation");
  public static final KeySpec LORA_DROPOUT =
      KEYS.of(
          P + "lora_dropout",
          KeyType.DOUBLE,
          0.0,
          "dropout p on the adapters' inputs in train steps (PEFT's lora_dropout)");
  private static final String ADAPTERS = "adapters";
  public static final KeySpec LORA_SYNC =
      KEYS.of(
          "actor_rollout_ref.rollout.lora_sync",
          KeyType.oneOf("merged", ADAPTERS),
          ADAPTERS,
          "what a weight sync moves under LoRA: the merged model, or the adapters alone"
              + " (samplers merge them into the base they hold)");

  private LoraKeys() {}

  /** The recipe's adapters ({@link LoraConfig#NONE} at rank 0), every key checked by name. */
  public static LoraConfig from(Settings s) {
    int rank = s.getInt(LORA_RANK);
    Checks.require(rank >= 0, LORA_RANK.name(), "must be >= 0 (0 = full fine-tuning)");
    if (rank == 0) {
      return LoraConfig.NONE;
    }
    double alpha = s.getDouble(LORA_ALPHA);
    Checks.require(alpha > 0 && Double.isFinite(alpha), LORA_ALPHA.name(), "must be > 0");
    Set<String> targets = new LinkedHashSet<>();
    for (String m : s.getStrings(TARGET_MODULES)) {
      if (m.equals(ALL_LINEAR)) {
        targets.addAll(LoraConfig.MODULES);
      } else {
        Checks.require(
            LoraConfig.MODULES.contains(m),
            TARGET_MODULES.name(),
            "'" + m + "' is not all-linear or one of " + LoraConfig.MODULES);
        targets.add(m);
      }
    }
    for (String m : s.getStrings(EXCLUDE_MODULES)) {
      Checks.require(
          LoraConfig.MODULES.contains(m),
          EXCLUDE_MODULES.name(),
          "'" + m + "' is not one of " + LoraConfig.MODULES);
      targets.remove(m);
    }
    Checks.require(
        !targets.isEmpty(),
        TARGET_MODULES.name(),
        "leaves no layer for the adapters (after exclude_modules)");
    double dropout = s.getDouble(LORA_DROPOUT);
    Checks.require(dropout >= 0 && dropout < 1, LORA_DROPOUT.name(), "must be in [0, 1)");
    return new LoraConfig(rank, alpha, targets, dropout);
  }

  /** Whether weight syncs move the adapters alone ({@code lora_sync=adapters}). */
  public static boolean syncsAdapters(Settings s) {
    return s.getString(LORA_SYNC).equals(ADAPTERS);
  }

  /** The seed of fresh adapters. */
  public static long seed(Settings s) {
    return s.getLong(LORA_SEED);
  }
}
