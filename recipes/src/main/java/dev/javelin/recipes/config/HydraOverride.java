package dev.javelin.recipes.config;

/**
 * One command-line override in Hydra's grammar, as VeRL scripts write them: {@code key=value} sets
 * a key, {@code +key=value} and {@code ++key=value} add or force-add one, {@code ~key} (or {@code
 * ~key=value}, which must match the current value) removes one. Javelin's schema already holds
 * every key with its default, so adding and setting are the same here and removing a key restores
 * its default.
 *
 * @param key the dotted key, without the prefix
 * @param valueText the text after {@code =}; null for {@code ~key}
 * @param delete whether this is a {@code ~} override
 */
record HydraOverride(String key, String valueText, boolean delete) {
  private static final String FORMS =
      " (e.g. data.train_batch_size=32; Hydra's +key=value, ++key=value and ~key work too)";

  /** Parses one argument; a malformed one is a {@link ConfigException} naming it. */
  static HydraOverride parse(String text) {
    String t = text.strip();
    boolean delete = t.startsWith("~");
    String body =
        t.startsWith("++") ? t.substring(2) : delete || t.startsWith("+") ? t.substring(1) : t;
    int eq = body.indexOf('=');
    String key = (eq < 0 ? body : body.substring(0, eq)).strip();
    if (key.isEmpty() || key.startsWith("+") || key.startsWith("~") || (eq < 0 && !delete)) {
      throw new ConfigException("override '" + text + "' is not key=value" + FORMS);
    }
    return new HydraOverride(key, eq < 0 ? null : body.substring(eq + 1), delete);
  }
}
