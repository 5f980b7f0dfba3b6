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
  private final Schema schema;

  public RecipeLoader(Schema schema) {
    this.schema = schema;
  }

  /** Loads a recipe file and applies overrides in order (later wins). */
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
    for (String o : overrides) {
      int eq = o.indexOf('=');
      if (eq <= 0) {
        throw new ConfigException(
            "override '" + o + "' is not key=value (e.g. data.train_batch_size=32)");
      }
      String key = o.substring(0, eq).trim();
      Object value = parseScalar(o.substring(eq + 1), "override " + key);
      raw.put(key, value);
      origin.put(key, "command-line override");
    }
    return validate(raw, origin);
  }

  private Settings validate(Map<String, Object> raw, Map<String, String> origin) {
    Map<String, Object> values = new LinkedHashMap<>();
    List<String> notes = new ArrayList<>();
    for (var e : raw.entrySet()) {
      Optional<String> noEffect =
          schema.key(e.getKey()).isPresent() ? Optional.empty() : VerlEngineKeys.reason(e.getKey());
      if (noEffect.isPresent()) {
        notes.add(e.getKey() + "=" + e.getValue() + " has no effect here: " + noEffect.get());
        continue;
      }
      KeySpec spec =
          schema
              .key(e.getKey())
              .orElseThrow(
                  () ->
                      new ConfigException(
                          "unknown recipe key '"
                              + e.getKey()
                              + "' in "
                              + origin.get(e.getKey())
                              + Suggestions.hint(e.getKey(), schema.names())));
      if (e.getValue() == null) {
        continue; // an explicit null means "use the default"
      }
      try {
        values.put(e.getKey(), spec.type().coerce(e.getValue()));
      } catch (IllegalArgumentException | ArithmeticException ex) {
        throw new ConfigException(
            "recipe key '"
                + e.getKey()
                + "' in "
                + origin.get(e.getKey())
                + ": "
                + ex.getMessage()
                + " ("
                + spec.doc()
                + ")",
            ex);
      }
    }
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
    return new Settings(schema, values, notes);
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
        out.put(key, e.getValue());
        origin.put(key, source);
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
