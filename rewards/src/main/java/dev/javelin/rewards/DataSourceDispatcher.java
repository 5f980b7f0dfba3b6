package dev.javelin.rewards;

import dev.javelin.rewards.RewardConfigException.Field;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The default reward: picks a function by the row's data source, like VeRL's {@code
 * default_compute_score}. Call {@link #validate} with the dataset's data sources at start-up so
 * that an unknown source stops the run before training rather than scoring 0 mid-run.
 *
 * <p>Recipe kwargs: {@code routes} (extra {@code source: function-name} pairs, overriding the
 * defaults) and, per function name, that function's own kwargs, e.g. {@code gsm8k: {method:
 * flexible}}.
 */
public final class DataSourceDispatcher implements RewardFunction {

  /** The built-in routes: data source → registered function name. */
  public static final Map<String, String> DEFAULT_ROUTES = defaultRoutes();

  private final Map<String, RewardFunction> bySource;

  private DataSourceDispatcher(Map<String, RewardFunction> bySource) {
    this.bySource = Collections.unmodifiableMap(new LinkedHashMap<>(bySource));
  }

  /** A dispatcher over explicit routes (data source → function). */
  public static DataSourceDispatcher of(Map<String, RewardFunction> routes) {
    return new DataSourceDispatcher(routes);
  }

  /** The default routes plus the recipe's {@code routes} and per-function kwargs. */
  public static DataSourceDispatcher withDefaults(
      RewardRegistry registry, Map<String, Object> kwargs) {
    Map<String, Object> kw = kwargs == null ? Map.of() : kwargs;
    Map<String, String> routes = new LinkedHashMap<>(DEFAULT_ROUTES);
    Object extra = kw.get("routes");
    if (extra != null && !(extra instanceof Map)) {
      throw new RewardConfigException(
          Field.KWARGS, "'routes' must map data source to function name");
    }
    if (extra instanceof Map<?, ?> m) {
      m.forEach((k, v) -> routes.put(String.valueOf(k), String.valueOf(v)));
    }
    Set<String> used = new TreeSet<>(routes.values());
    for (String key : kw.keySet()) {
      if (!key.equals("routes") && !used.contains(key)) {
        throw new RewardConfigException(
            Field.KWARGS,
            "'" + key + "' is not a routed function; expected 'routes' or one of " + used);
      }
    }
    Map<String, RewardFunction> byName = new HashMap<>();
    Map<String, RewardFunction> bySource = new LinkedHashMap<>();
    for (Map.Entry<String, String> route : routes.entrySet()) {
      String fn = route.getValue();
      RewardFunction f = byName.computeIfAbsent(fn, n -> registry.create(n, functionKwargs(kw, n)));
      bySource.put(route.getKey(), f);
    }
    return new DataSourceDispatcher(bySource);
  }

  private static Map<String, Object> functionKwargs(Map<String, Object> kw, String fn) {
    Object v = kw.get(fn);
    if (v == null) {
      return Map.of();
    }
    if (!(v instanceof Map<?, ?> m)) {
      throw new RewardConfigException(Field.KWARGS, "'" + fn + "' must be a map, got " + v);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, val) -> out.put(String.valueOf(k), val));
    return out;
  }

  /** The data sources this dispatcher can score. */
  public Set<String> sources() {
    return bySource.keySet();
  }

  /** Fails, listing the known sources, if any of {@code dataSources} has no route. */
  public void validate(Collection<String> dataSources) {
    Set<String> unknown = new TreeSet<>();
    for (String s : dataSources) {
      if (!bySource.containsKey(s)) {
        unknown.add(s);
      }
    }
    if (!unknown.isEmpty()) {
      throw new RewardConfigException(
          Field.KWARGS,
          "no reward function for data source(s) "
              + unknown
              + "; known sources: "
              + new TreeSet<>(bySource.keySet())
              + ". Route them with 'routes' (data source: function name), or name one function"
              + " for all");
    }
  }

  @Override
  public String name() {
    return "dispatch";
  }

  @Override
  public RewardResult score(RewardInput input) {
    RewardFunction f = bySource.get(input.dataSource());
    if (f == null) {
      throw new IllegalArgumentException(
          "no reward function for data source '" + input.dataSource() + "'");
    }
    return f.score(input);
  }

  private static Map<String, String> defaultRoutes() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("openai/gsm8k", "gsm8k");
    for (String s :
        new String[] {
          "lighteval/MATH",
          "DigitalLearningGmbH/MATH-lighteval",
          "HuggingFaceH4/MATH-500",
          "math500",
          "math"
        }) {
      m.put(s, "math");
    }
    m.put("math_dapo", "math_dapo");
    m.put("BytedTsinghua-SIA/DAPO-Math-17k", "math_dapo");
    m.put("synthetic/countdown", "countdown");
    m.put("countdown", "countdown");
    m.put("synthetic/arith", "exact_match");
    return Collections.unmodifiableMap(m);
  }
}
