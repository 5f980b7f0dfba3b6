package dev.javelin.recipes.config;

import dev.javelin.backend.model.ModelConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code actor_rollout_ref.model.override_config.*} (VeRL's key, usually set as {@code
 * +actor_rollout_ref.model.override_config.attention_dropout=0.}): Hugging Face config.json fields
 * to change on the loaded model. The fields Javelin's model reads and that leave the weights' shape
 * alone ({@code rope_theta}, {@code rms_norm_eps}, {@code max_position_embeddings}) take effect;
 * {@code router_aux_loss_coef} adds that multiple of a Mixture-of-Experts policy's router
 * load-balancing loss to the actor loss (default 0: the loss is reported as {@code actor/aux_loss}
 * and not added, as in VeRL, whose actor computes its loss from the logits alone); dropout at 0 is
 * what the model does already (it has none); a shape field or a non-zero dropout is refused; any
 * other field gets a one-line note that it has no effect here.
 */
public final class ModelOverrideKeys {
  static final KeySet KEYS = new KeySet();
  static final KeySpec OVERRIDE_CONFIG =
      KEYS.optional(
          "actor_rollout_ref.model.override_config",
          KeyType.MAP,
          "config.json fields to change: rope_theta, rms_norm_eps, max_position_embeddings;"
              + " router_aux_loss_coef adds that multiple of a Mixture-of-Experts model's"
              + " load-balancing loss to the actor loss (default 0)");

  private static final List<String> SHAPE =
      List.of(
          "vocab_size",
          "hidden_size",
          "intermediate_size",
          "num_hidden_layers",
          "num_attention_heads",
          "num_key_value_heads",
          "head_dim",
          "tie_word_embeddings");

  private ModelOverrideKeys() {}

  /**
   * The fields that take effect (null when not set) and one line per field, saying what it does.
   *
   * @param ropeTheta {@code rope_theta}
   * @param rmsNormEps {@code rms_norm_eps}
   * @param maxPositions {@code max_position_embeddings}
   * @param routerAuxLossCoef {@code router_aux_loss_coef}, 0 when not set
   * @param lines "applied" and "no effect here" lines, for the start of a run
   */
  public record Overrides(
      Double ropeTheta,
      Double rmsNormEps,
      Integer maxPositions,
      double routerAuxLossCoef,
      List<String> lines) {
    public Overrides {
      lines = List.copyOf(lines);
    }

    /** {@code c} with the overridden fields. */
    public ModelConfig apply(ModelConfig c) {
      ModelConfig out = c;
      if (ropeTheta != null) {
        out = out.withRopeTheta(ropeTheta);
      }
      if (rmsNormEps != null) {
        out = out.withRmsNormEps(rmsNormEps);
      }
      if (maxPositions != null) {
        out = out.withMaxPositions(maxPositions);
      }
      return out;
    }
  }

  /** The recipe's overrides, validated; a field that cannot apply is a {@link ConfigException}. */
  public static Overrides from(Settings s) {
    Double rope = null;
    Double eps = null;
    Integer positions = null;
    double auxCoef = 0;
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, Object> e : s.getMap(OVERRIDE_CONFIG).entrySet()) {
      String field = e.getKey();
      String key = OVERRIDE_CONFIG.name() + "." + field;
      Object v = e.getValue();
      switch (field) {
        case "rope_theta" -> rope = positive(key, KeyType.DOUBLE, v).doubleValue();
        case "rms_norm_eps" -> eps = positive(key, KeyType.DOUBLE, v).doubleValue();
        case "max_position_embeddings" -> positions = positive(key, KeyType.INT, v).intValue();
        case "router_aux_loss_coef" -> {
          auxCoef = nonNegative(key, v);
          lines.add(
              key
                  + "="
                  + v
                  + " adds that multiple of the router load-balancing loss to the actor loss"
                  + " (Mixture-of-Experts models; a dense model has none)");
          continue;
        }
        default -> {
          lines.add(unapplied(key, field, v));
          continue;
        }
      }
      lines.add(key + "=" + v + " applies to the model config");
    }
    return new Overrides(rope, eps, positions, auxCoef, lines);
  }

  /** The line for a field that does not apply, or the refusal when ignoring it would mislead. */
  private static String unapplied(String key, String field, Object v) {
    if (field.contains("dropout") || field.endsWith("_pdrop")) {
      Checks.require(
          v instanceof Number n && n.doubleValue() == 0,
          key,
          "Javelin's model has no dropout; only 0 can apply (got " + v + ")");
      return key + "=" + v + " has no effect here: Javelin's model has no dropout (as 0 asks)";
    }
    Checks.require(
        !SHAPE.contains(field),
        key,
        "changes the shape of the checkpoint's weights; it cannot be overridden (a random model's"
            + " shape is actor_rollout_ref.model.init.*)");
    return key
        + "="
        + v
        + " has no effect here: of override_config, Javelin reads rope_theta,"
        + " rms_norm_eps, max_position_embeddings and router_aux_loss_coef";
  }

  private static double nonNegative(String key, Object v) {
    double c;
    try {
      c = ((Number) KeyType.DOUBLE.coerce(v)).doubleValue();
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new ConfigException("recipe key '" + key + "': " + e.getMessage());
    }
    Checks.require(c >= 0 && Double.isFinite(c), key, "must be a finite number >= 0, got " + v);
    return c;
  }

  private static Number positive(String key, KeyType type, Object v) {
    Number c;
    try {
      c = (Number) type.coerce(v);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new ConfigException("recipe key '" + key + "': " + e.getMessage());
    }
    Checks.require(c.doubleValue() > 0, key, "must be > 0, got " + v);
    return c;
  }
}
