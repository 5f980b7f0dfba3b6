package dev.javelin.recipes.config;

import dev.javelin.backend.DType;
import java.util.Set;

/**
 * VeRL's mixed-precision keys, {@code actor_rollout_ref.actor.fsdp_config.mixed_precision.*}.
 * {@code param_dtype} is the type the trainer's log-probs and train steps compute in: with bf16
 * each step casts a bf16 copy from the f32 master weights, and the weights, gradients and AdamW
 * moments stay f32 (norms, softmax, log-probs and the loss are computed in f32). Unset, it follows
 * the device: bf16 on {@code tpu} and {@code xla:gpu}, whose matrix units run bf16, f32 elsewhere.
 * {@code reduce_dtype} and {@code buffer_dtype} may only be fp32: gradients are summed and reduced
 * in f32 here, and there are no FSDP buffers. The other {@code fsdp_config} keys have no effect
 * ({@link VerlEngineKeys}).
 */
public final class MixedPrecisionKeys {
  private static final Set<String> BF16 = Set.of("bf16", "bfloat16");
  private static final Set<String> BF16_DEVICES = Set.of("tpu", "xla:gpu");
  static final KeySet KEYS = new KeySet("actor_rollout_ref.actor.fsdp_config.mixed_precision.");

  /** The values a compute-type key takes: VeRL's spellings of f32 and bf16. */
  static final KeyType DTYPES = KeyType.oneOf("fp32", "float32", "bf16", "bfloat16");

  public static final KeySpec PARAM_DTYPE =
      KEYS.optional(
          "param_dtype",
          DTYPES,
          "trainer compute type; default bf16 on tpu and xla:gpu, fp32 elsewhere");
  public static final KeySpec REDUCE_DTYPE =
      KEYS.of("reduce_dtype", DTYPES, "fp32", "gradient reduction type; fp32 only");
  public static final KeySpec BUFFER_DTYPE =
      KEYS.of("buffer_dtype", DTYPES, "fp32", "buffer type; fp32 only");

  private MixedPrecisionKeys() {}

  /** What the trainer computes in (f32 or bf16), every key checked by name. */
  public static DType computeDType(Settings s) {
    Checks.require(
        !BF16.contains(s.getString(REDUCE_DTYPE)),
        REDUCE_DTYPE.name(),
        "must be fp32: Javelin sums gradients and reduces norms, softmax and the loss in f32");
    Checks.require(
        !BF16.contains(s.getString(BUFFER_DTYPE)),
        BUFFER_DTYPE.name(),
        "must be fp32: there are no separate FSDP buffers here");
    return typeOf(s, PARAM_DTYPE);
  }

  /**
   * The type a dtype key ({@code fp32}, {@code float32}, {@code bf16}, {@code bfloat16}) names;
   * unset, the device's: bf16 on {@code tpu} and {@code xla:gpu}, f32 elsewhere. The trainer's
   * {@code param_dtype} and the samplers' {@code rollout.dtype} share the rule.
   */
  static DType typeOf(Settings s, KeySpec key) {
    if (!s.isSet(key)) {
      return BF16_DEVICES.contains(s.getString(TrainerSection.DEVICE)) ? DType.BF16 : DType.F32;
    }
    return BF16.contains(s.getString(key)) ? DType.BF16 : DType.F32;
  }
}
