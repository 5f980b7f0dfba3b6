package dev.javelin.recipes.config;

import java.util.List;

/**
 * {@code data.synthetic.*}: a generated task (the tiny-model recipes use it).
 *
 * @param task none, arith or countdown
 * @param trainSize training prompts
 * @param valSize held-out prompts, never trained on
 * @param seed seed of the split
 * @param digits arith: digits per operand
 * @param operators arith: operator symbols
 */
public record SyntheticConfig(
    String task, int trainSize, int valSize, long seed, int digits, List<String> operators) {

  /** Validates sizes and operators. */
  public SyntheticConfig {
    operators = List.copyOf(operators);
    Checks.positive("data.synthetic.train_size", trainSize);
    Checks.positive("data.synthetic.val_size", valSize);
    Checks.positive("data.synthetic.digits", digits);
    Checks.require(!operators.isEmpty(), "data.synthetic.operators", "needs at least one of + - *");
    for (String op : operators) {
      Checks.require(
          op.equals("+") || op.equals("-") || op.equals("*"),
          "data.synthetic.operators",
          "'" + op + "' is not one of + - *");
    }
  }

  static SyntheticConfig from(Settings s) {
    return new SyntheticConfig(
        s.getString("data.synthetic.task"),
        s.getInt("data.synthetic.train_size"),
        s.getInt("data.synthetic.val_size"),
        s.getLong("data.synthetic.seed"),
        s.getInt("data.synthetic.digits"),
        s.getStrings("data.synthetic.operators"));
  }

  /** Whether a task is generated. */
  public boolean enabled() {
    return !task.equals("none");
  }
}
