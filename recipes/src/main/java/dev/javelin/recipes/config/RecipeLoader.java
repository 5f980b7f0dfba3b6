package dev.javelin.recipes.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads a YAML recipe plus {@code key=value} overrides into validated {@link Settings}. Nested YAML
 * maps become dotted keys ({@code data: {train_batch_size: 32}} is {@code data.train_batch_size}),
 * so a VeRL run script's overrides port by copying them.
 */
public final class RecipeLoader {
  private static final int MAX_RECIPE_BYTES = 1 << 20;
  private static final String OVERRIDE = "command-line override";
  private final Schema schema;

  public RecipeLoader(Schema schema) {
    this.schema = schema;
  }

  /**
   * Loads a recipe file and applies overrides in order (later wins), in Hydra's grammar ({@link
   * HydraOverride}).
   */
  public Settings load(Path recipe, List<String> overrides) {
    return resolve(read(recipe), recipe.toString(), overrides);
  }

  /** Loads recipe text (for tests and embedded recipes). */
  public Settings loadString(String yaml, String source, List<String> overrides) {
    return resolve(parse(yaml, source), source, overrides);
  }

  private Settings resolve(Map<String, Object> tree, String source, List<String> overrides) {
    Map<String, Object> raw = new LinkedHashMap<>();
    Map<String, String> origin = new LinkedHashMap<>();
    flatten("", tree, raw, origin, source);
    List<String> unknown = new ArrayList<>();
    for (String o : overrides) {
      HydraOverride h = HydraOverride.parse(o);
      String key = schema.canonical(h.key());
      if (h.delete()) {
        delete(key, h.valueText(), raw, origin, unknown);
      } else {
        put(key, parseScalar(h.valueText(), "override " + h.key()), raw);
        origin.put(key, OVERRIDE);
      }
    }
    return validate(raw, origin, unknown);
  }

  /**
   * Sets {@code key} (already canonical); a dotted entry of a mapping key ({@code
   * ...override_config.rope_theta}) goes into that mapping.
   */
  private void put(String key, Object value, Map<String, Object> raw) {
    Optional<String> map = schema.key(key).isPresent() ? Optional.empty() : schema.mapKeyAbove(key);
    if (map.isEmpty()) {
      raw.remove(key); // re-inserted last: a later setting wins and lists last
      raw.put(key, value);
      return;
    }
    Map<String, Object> root =
        raw.get(map.get()) instanceof Map<?, ?> old ? deepCopy(old) : new LinkedHashMap<>();
    Map<String, Object> node = root;
    String[] path = key.substring(map.get().length() + 1).split("\\.", -1);
    for (int i = 0; i < path.length - 1; i++) {
      Map<String, Object> child =
          node.get(path[i]) instanceof Map<?, ?> m ? deepCopy(m) : new LinkedHashMap<>();
      node.put(path[i], child);
      node = child;
    }
    node.put(path[path.length - 1], value);
    raw.put(map.get(), root);
  }

  /**
   * Hydra's {@code ~key}: drops the key (back to its default), every key under it, or an entry of a
   * mapping key; with {@code =value} only when that is the current value.
   */
  private void delete(
      String key,
      String valueText,
      Map<String, Object> raw,
      Map<String, String> origin,
      List<String> unknown) {
    boolean known =
        schema.key(key).isPresent()
            || schema.names().stream().anyMatch(n -> n.startsWith(key + "."))
            || schema.mapKeyAbove(key).isPresent()
            || VerlEngineKeys.reason(key).isPresent();
    if (!known) {
      unknown.add(key);
      origin.put(key, OVERRIDE);
      return;
    }
    if (valueText != null) {
      Object wanted = parseScalar(valueText, "override ~" + key);
      Object current = raw.get(key);
      if (!String.valueOf(current).equals(String.valueOf(wanted))) {
        throw new ConfigException(
            "override '~"
                + key
                + "="
                + valueText
                + "': the current value is "
                + current
                + ", not "
                + wanted
                + " (~"
                + key
                + " removes it whatever its value)");
      }
    }
    raw.keySet().removeIf(k -> k.equals(key) || k.startsWith(key + "."));
    schema
        .mapKeyAbove(key)
        .ifPresent(
            map -> {
              if (raw.get(map) instanceof Map<?, ?> m) {
                Map<String, Object> copy = deepCopy(m);
                copy.remove(key.substring(map.length() + 1));
                raw.put(map, copy);
              }
            });
  }

  private static Map<String, Object> deepCopy(Map<?, ?> m) {
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(String.valueOf(k), v instanceof Map<?, ?> c ? deepCopy(c) : v));
    return out;
  }

  private Settings validate(
      Map<String, Object> raw, Map<String, String> origin, List<String> unknown) {
    Map<String, Object> values = new LinkedHashMap<>();
    List<String> notes = new ArrayList<>();
    List<String> invalid = new ArrayList<>();
    for (var e : raw.entrySet()) {
      Optional<KeySpec> spec = schema.key(e.getKey());
      if (spec.isEmpty()) {
        Optional<String> noEffect = VerlEngineKeys.reason(e.getKey());
        if (noEffect.isPresent()) {
          notes.add(e.getKey() + "=" + e.getValue() + " has no effect here: " + noEffect.get());
        } else {
          unknown.add(e.getKey());
        }
        continue;
      }
      if (e.getValue() == null) {
        continue; // an explicit null means "use the default"
      }
      try {
        values.put(e.getKey(), spec.get().type().coerce(e.getValue()));
      } catch (IllegalArgumentException | ArithmeticException ex) {
        invalid.add(
            "recipe key '"
                + e.getKey()
                + "' in "
                + origin.get(e.getKey())
                + ": "
                + ex.getMessage()
                + " ("
                + spec.get().doc()
                + ")");
      }
    }
    failOnProblems(unknown, invalid, origin);
    Set<String> stated = Set.copyOf(values.keySet());
    for (KeySpec spec : schema.specs()) {
      if (!values.containsKey(spec.name())) {
        if (spec.required()) {
          throw new ConfigException("recipe key '" + spec.name() + "' is required: " + spec.doc());
        }
        if (spec.defaultValue() != null) {
          values.put(spec.name(), spec.defaultValue());
        }
      }
    }
    return new Settings(schema, values, notes, stated);
  }

  /**
   * Every unknown key and bad value of the recipe and its overrides in one message, so a pasted
   * script is fixed in one try rather than one key per try.
   */
  private void failOnProblems(
      List<String> unknown, List<String> invalid, Map<String, String> origin) {
    List<String> problems = new ArrayList<>();
    for (String key : unknown) {
      problems.add("'" + key + "' in " + origin.get(key) + Suggestions.hint(key, schema.names()));
    }
    if (problems.size() == 1) {
      problems.set(0, "unknown recipe key " + problems.get(0));
    } else if (!problems.isEmpty()) {
      String all = String.join("; ", problems);
      problems.clear();
      problems.add(unknown.size() + " unknown recipe keys: " + all);
    }
    problems.addAll(invalid);
    if (!problems.isEmpty()) {
      throw new ConfigException(String.join("; ", problems));
    }
  }

  private void flatten(
      String prefix,
      Map<String, Object> node,
      Map<String, Object> out,
      Map<String, String> origin,
      String source) {
    for (var e : node.entrySet()) {
      String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
      if (e.getValue() instanceof Map<?, ?> child && !schema.isMapKey(key)) {
        flatten(key, stringKeys(child, key, source), out, origin, source);
      } else {
        String canonical = schema.canonical(key);
        put(canonical, e.getValue(), out);
        origin.put(canonical, source);
      }
    }
  }

  private static Map<String, Object> read(Path recipe) {
    try {
      if (Files.size(recipe) > MAX_RECIPE_BYTES) {
        throw new ConfigException("recipe " + recipe + " is larger than 1 MiB");
      }
      Map<String, Object> doc = parse(Files.readString(recipe), recipe.toString());
      if (doc.isEmpty()) {
        throw new ConfigException(
            "recipe "
                + recipe
                + " is empty: start from a bundled recipe (javelin recipes lists them) and"
                + " change the keys you need");
      }
      return doc;
    } catch (NoSuchFileException e) {
      throw new ConfigException("recipe file not found: " + recipe, e);
    } catch (CharacterCodingException e) {
      throw new ConfigException(
          "recipe " + recipe + " is not a UTF-8 text file: pass a YAML recipe", e);
    } catch (IOException e) {
      throw new ConfigException("cannot read recipe " + recipe + ": " + e.getMessage(), e);
    }
  }

  private static Map<String, Object> parse(String yaml, String source) {
    Object doc = yamlLoad(yaml, source);
    if (doc == null) {
      return Map.of();
    }
    if (!(doc instanceof Map<?, ?> map)) {
      throw new ConfigException("recipe " + source + " must be a YAML mapping of keys");
    }
    return stringKeys(map, "", source);
  }

  private static Object parseScalar(String text, String source) {
    return text.isBlank() ? "" : yamlLoad(text, source);
  }

  private static Object yamlLoad(String text, String source) {
    LoadSettings settings =
        LoadSettings.builder()
            .setLabel(source)
            .setAllowDuplicateKeys(false)
            .setMaxAliasesForCollections(16)
            .setCodePointLimit(MAX_RECIPE_BYTES)
            .build();
    try {
      return new Load(settings).loadFromString(text);
    } catch (YamlEngineException e) {
      throw new ConfigException("invalid YAML in " + source + ": " + e.getMessage(), e);
    }
  }

  private static Map<String, Object> stringKeys(Map<?, ?> map, String at, String source) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (var e : map.entrySet()) {
      if (!(e.getKey() instanceof String k)) {
        throw new ConfigException(
            "non-string key "
                + e.getKey()
                + (at.isEmpty() ? "" : " under " + at)
                + " in "
                + source);
      }
      out.put(k, e.getValue());
    }
    return out;
  }
}
