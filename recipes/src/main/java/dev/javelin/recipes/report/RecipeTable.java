package dev.javelin.recipes.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The run's resolved recipe (its recipe.yaml) as a sorted table of dotted keys. */
final class RecipeTable {
  /** Largest recipe.yaml read; the run writes a few KB. */
  static final long MAX_BYTES = 1 << 20;

  private RecipeTable() {}

  /** The flattened recipe; empty when the file is missing, too large or not YAML. */
  static Map<String, String> read(Path file) throws IOException {
    Map<String, String> out = new TreeMap<>();
    if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES) {
      return out;
    }
    LoadSettings settings = LoadSettings.builder().setMaxAliasesForCollections(10).build();
    Object root;
    try {
      root = new Load(settings).loadFromString(Files.readString(file));
    } catch (RuntimeException e) {
      return out; // the report shows no recipe rather than failing
    }
    flatten("", root, out);
    return out;
  }

  private static void flatten(String prefix, Object node, Map<String, String> out) {
    if (node instanceof Map<?, ?> m) {
      m.forEach((k, v) -> flatten(prefix.isEmpty() ? "" + k : prefix + "." + k, v, out));
    } else if (node instanceof List<?> l) {
      out.put(prefix, l.toString());
    } else {
      out.put(prefix, node == null ? "null" : node.toString());
    }
  }

  static void append(StringBuilder sb, Map<String, String> recipe) {
    if (recipe.isEmpty()) {
      return;
    }
    sb.append("<h2>Resolved recipe</h2><table><tr><th>key</th><th>value</th></tr>");
    recipe.forEach(
        (k, v) ->
            sb.append("<tr><td>")
                .append(Html.escape(k))
                .append("</td><td>")
                .append(Html.escape(v))
                .append("</td></tr>"));
    sb.append("</table>");
  }
}
