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
  static final KeySet KEYS = new KeySet("data.synthetic.");
  public static final KeySpec TASK =
      KEYS.of(
          "task",
          KeyType.oneOf("none", "arith", "countdown"),
          "none",
          "a generated task instead of files");
  public static final KeySpec TRAIN_SIZE =
      KEYS.of("train_size", KeyType.INT, 20_000, "generated training prompts");
  public static final KeySpec VAL_SIZE =
      KEYS.of("val_size", KeyType.INT, 500, "generated held-out prompts");
  public static final KeySpec SEED =
      KEYS.of("seed", KeyType.LONG, 1L, "seed of the generated split");
  public static final KeySpec DIGITS =
      KEYS.of("digits", KeyType.INT, 3, "arith: digits per operand");
  public static final KeySpec OPERATORS =
      KEYS.of("operators", KeyType.STRING_LIST, List.of("+"), "arith: of + - *");

  /** Validates sizes and operators. */
  public SyntheticConfig {
    operators = List.copyOf(operators);
    Checks.positive(TRAIN_SIZE.name(), trainSize);
    Checks.positive(VAL_SIZE.name(), valSize);
    Checks.positive(DIGITS.name(), digits);
    Checks.require(!operators.isEmpty(), OPERATORS.name(), "needs at least one of + - *");
    for (String op : operators) {
      Checks.require(
          op.equals("+") || op.equals("-") || op.equals("*"),
          OPERATORS.name(),
          "'" + op + "' is not one of + - *");
    }
  }

  static SyntheticConfig from(Settings s) {
    return new SyntheticConfig(
        s.getString(TASK),
        s.getInt(TRAIN_SIZE),
        s.getInt(VAL_SIZE),
        s.getLong(SEED),
        s.getInt(DIGITS),
        s.getStrings(OPERATORS));
  }

  /** Whether a task is generated. */
  public boolean enabled() {
    return !task.equals("none");
  }
}
