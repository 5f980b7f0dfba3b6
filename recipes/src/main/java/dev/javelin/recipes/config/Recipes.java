package dev.javelin.recipes.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;

/**
 * Finds and loads recipes. A path that exists relative to the working directory is read from disk;
 * otherwise {@code recipes/<name>.yaml} (or just {@code <name>}) resolves to the recipe bundled in
 * this jar under {@code recipes/}, so {@code ./javelin run recipes/arith-grpo.yaml} works from any
 * directory.
 */
public final class Recipes {
  /** Where bundled recipes live on the class path. */
  public static final String BUNDLED_DIR = "recipes/";

  private static final List<String> BUNDLED =
      List.of(
          "arith-sft",
          "arith-grpo",
          "countdown-grpo",
          "gsm8k-grpo",
          "smollm2-arith-grpo",
          "dapo-math",
          "gsm8k-eval",
          "math500-eval");

  private Recipes() {}

  /** Loads and validates {@code recipe} (a path or a bundled name) with overrides. */
  public static RecipeConfig load(String recipe, List<String> overrides) {
    return RecipeConfig.from(settings(recipe, overrides));
  }

  /**
   * Loads and validates a recipe made of overrides alone ({@code source} names it in messages):
   * every key not set takes its default, as in an empty recipe file.
   */
  public static RecipeConfig loadOverrides(String source, List<String> overrides) {
    return RecipeConfig.from(
        new RecipeLoader(RecipeSchema.schema()).loadString("", source, overrides));
  }

  /**
   * The {@code key=value} override that sets {@code key} to {@code value} (a string, number,
   * boolean, list or map), the value written as one line of YAML so that it reads back as it is (a
   * string that looks like a number stays a string).
   */
  public static String override(String key, Object value) {
    DumpSettings settings =
        DumpSettings.builder()
            .setDefaultFlowStyle(FlowStyle.FLOW)
            .setWidth(Integer.MAX_VALUE)
            .build();
    return key + "=" + new Dump(settings).dumpToString(value).strip();
  }

  /** Loads {@code recipe} with overrides into settings, without building the records. */
  public static Settings settings(String recipe, List<String> overrides) {
    RecipeLoader loader = new RecipeLoader(RecipeSchema.schema());
    Path path = Path.of(recipe);
    if (Files.isRegularFile(path)) {
      return loader.load(path, overrides);
    }
    String name = bundledName(recipe);
    return loader.loadString(bundledText(name, recipe), "bundled " + BUNDLED_DIR + name, overrides);
  }

  /** The names of the bundled recipes. */
  public static List<String> bundled() {
    return BUNDLED;
  }

  private static String bundledName(String recipe) {
    String name = recipe.replace('\\', '/');
    if (name.startsWith("./")) {
      name = name.substring(2);
    }
    if (name.startsWith(BUNDLED_DIR)) {
      name = name.substring(BUNDLED_DIR.length());
    }
    return name.endsWith(".yaml") ? name : name + ".yaml";
  }

  private static String bundledText(String name, String asked) {
    try (InputStream in = Recipes.class.getClassLoader().getResourceAsStream(BUNDLED_DIR + name)) {
      if (in == null || name.contains("/")) {
        throw new ConfigException(
            "recipe file not found: "
                + asked
                + " (no such file, and no bundled recipe of that name; bundled: "
                + BUNDLED
                + Suggestions.hint(name.replace(".yaml", ""), BUNDLED)
                + ")");
      }
      return new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException("cannot read bundled recipe " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * The resolved recipe as flat YAML ({@code data.train_batch_size: 32} lines), which {@link
   * RecipeLoader} reads back to the same settings: how a recipe travels to actors as bytes and how
   * a run records what it ran.
   */
  public static String toYaml(Settings s) {
    DumpSettings settings = DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).build();
    return new Dump(settings).dumpToString(s.asMap());
  }

  /** Reads flat YAML written by {@link #toYaml} (plus overrides). */
  public static RecipeConfig fromYaml(String yaml, String source, List<String> overrides) {
    return RecipeConfig.from(
        new RecipeLoader(RecipeSchema.schema()).loadString(yaml, source, overrides));
  }

  /** {@code key=value} overrides for a map of keys. */
  public static List<String> overrides(Map<String, String> values) {
    List<String> out = new ArrayList<>();
    values.forEach((k, v) -> out.add(k + "=" + v));
    return out;
  }
}
