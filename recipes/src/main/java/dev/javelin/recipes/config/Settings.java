package dev.javelin.recipes.config;

import dev.javelin.grpo.RecipeKeyed;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A recipe's validated values: every key known to the schema, typed, with defaults filled in. Typed
 * getters fail loudly on a key the schema does not declare (a programming error, not a user error).
 */
public final class Settings {
  private final Schema schema;
  private final Map<String, Object> values;
  private final List<String> noEffectNotes;
  // keys the recipe file or an override gave, as opposed to schema defaults
  private final Set<String> stated;

  Settings(Schema schema, Map<String, Object> values) {
    this(schema, values, List.of(), values.keySet());
  }

  Settings(
      Schema schema, Map<String, Object> values, List<String> noEffectNotes, Set<String> stated) {
    this.schema = schema;
    this.values = Collections.unmodifiableMap(new TreeMap<>(values));
    this.noEffectNotes = List.copyOf(noEffectNotes);
    this.stated = Set.copyOf(stated);
  }

  /**
   * One line per VeRL engine key the recipe set that has no effect here ({@link VerlEngineKeys}),
   * for the run to print at start-up.
   */
  public List<String> noEffectNotes() {
    return noEffectNotes;
  }

  public Schema schema() {
    return schema;
  }

  /** All set or defaulted values, sorted by key, for logging the resolved recipe. */
  public Map<String, Object> asMap() {
    return values;
  }

  public int getInt(String key) {
    return (Integer) require(key);
  }

  public long getLong(String key) {
    return (Long) require(key);
  }

  public double getDouble(String key) {
    return (Double) require(key);
  }

  public boolean getBool(String key) {
    return (Boolean) require(key);
  }

  public String getString(String key) {
    return (String) require(key);
  }

  public Optional<String> optString(String key) {
    declared(key);
    return Optional.ofNullable((String) values.get(key));
  }

  @SuppressWarnings("unchecked") // the schema's STRING_LIST type guarantees List<String>
  public List<String> getStrings(String key) {
    declared(key);
    Object v = values.get(key);
    return v == null ? List.of() : (List<String>) v;
  }

  @SuppressWarnings("unchecked") // the schema's MAP type guarantees Map<String, Object>
  public Map<String, Object> getMap(String key) {
    declared(key);
    Object v = values.get(key);
    return v == null ? Map.of() : (Map<String, Object>) v;
  }

  public boolean isSet(String key) {
    declared(key);
    return values.get(key) != null;
  }

  /** Whether the recipe or an override gave {@code key} (a filled-in default does not count). */
  public boolean isStated(KeySpec key) {
    declared(key.name());
    return stated.contains(key.name());
  }

  // Reads through a section's key constant (see KeySet): the key's one spelling.

  public int getInt(KeySpec key) {
    return getInt(key.name());
  }

  public long getLong(KeySpec key) {
    return getLong(key.name());
  }

  public double getDouble(KeySpec key) {
    return getDouble(key.name());
  }

  public boolean getBool(KeySpec key) {
    return getBool(key.name());
  }

  public String getString(KeySpec key) {
    return getString(key.name());
  }

  public Optional<String> optString(KeySpec key) {
    return optString(key.name());
  }

  public List<String> getStrings(KeySpec key) {
    return getStrings(key.name());
  }

  public Map<String, Object> getMap(KeySpec key) {
    return getMap(key.name());
  }

  public boolean isSet(KeySpec key) {
    return isSet(key.name());
  }

  // Reads that check the value too, for the sections' from(Settings); failures name the key.

  /** {@code key}'s string unless unset or blank: an empty override ({@code key=}) clears it. */
  Optional<String> optNonBlank(KeySpec key) {
    return optString(key).filter(v -> !v.isBlank());
  }

  /** {@code key}'s int, which must be >= 1. */
  int positiveInt(KeySpec key) {
    return Checks.positive(key.name(), getInt(key));
  }

  /** An optional count: {@code key}'s int (>= 1) when set, else 0 (the section's own default). */
  int positiveIntOrZero(KeySpec key) {
    return isSet(key) ? positiveInt(key) : 0;
  }

  /** {@code key}'s number, which must be finite and >= 0. */
  double nonNegativeDouble(KeySpec key) {
    return Checks.nonNegative(key.name(), getDouble(key));
  }

  /**
   * The constant of {@code type} that {@code key}'s value names; the key's type is {@link
   * KeyType#keysOf} the same enum, so the value was checked when the recipe was read.
   */
  <E extends Enum<E> & RecipeKeyed> E getChoice(KeySpec key, Class<E> type) {
    return RecipeKeyed.lookup(type, getString(key), key.name());
  }

  private Object require(String key) {
    declared(key);
    Object v = values.get(key);
    if (v == null) {
      throw new ConfigException("recipe key '" + key + "' must be set");
    }
    return v;
  }

  private void declared(String key) {
    if (schema.key(key).isEmpty()) {
      throw new IllegalArgumentException("undeclared recipe key read by code: " + key);
    }
  }
}
