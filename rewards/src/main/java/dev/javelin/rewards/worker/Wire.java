package dev.javelin.rewards.worker;

import dev.javelin.rewards.RewardConfigException;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardResult;
import dev.javelin.rewards.RewardSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages between the scorer and a worker, as JSON objects with a type {@code t}:
 *
 * <ul>
 *   <li>scorer → worker: {@code init} (the reward spec and where its code is), then {@code score}
 *       frames of rows {@code [dataSource, prompt, response, groundTruth, extraInfo]};
 *   <li>worker → scorer: {@code ready} (the function's name, whether it prefers batches) or {@code
 *       fail} (a configuration error, one line), then {@code done} frames holding the next rows'
 *       results in order, each {@code {"s": score, "x": extras}} or {@code {"e": error}}, with the
 *       worker's live thread count {@code th} and {@code end} on the last of a {@code score} frame.
 * </ul>
 */
final class Wire {
  static final String TYPE = "t";

  private Wire() {}

  static Map<String, Object> init(RewardSpec spec, String codeRoot) {
    Map<String, Object> m = message("init");
    m.put("path", spec.path());
    m.put("root", codeRoot);
    m.put("class", spec.className());
    m.put("name", spec.name());
    m.put("kwargs", spec.kwargs());
    return m;
  }

  static RewardSpec spec(Map<String, Object> init) {
    return new RewardSpec(str(init, "path"), str(init, "class"), str(init, "name"), map(init));
  }

  static Map<String, Object> ready(String name, boolean prefersBatch) {
    Map<String, Object> m = message("ready");
    m.put("name", name);
    m.put("batch", prefersBatch);
    return m;
  }

  static Map<String, Object> fail(String why) {
    Map<String, Object> m = message("fail");
    m.put("msg", why);
    return m;
  }

  /** A configuration error with the spec field it lies in, for the driver to name. */
  static Map<String, Object> fail(RewardConfigException e) {
    Map<String, Object> m = fail(e.detail());
    e.field().ifPresent(f -> m.put("field", f.name()));
    return m;
  }

  /** The configuration error a {@code fail} frame carries. */
  static RewardConfigException failure(Map<String, Object> fail) {
    String msg = str(fail, "msg");
    String field = str(fail, "field");
    for (RewardConfigException.Field f : RewardConfigException.Field.values()) {
      if (f.name().equals(field)) {
        return new RewardConfigException(f, msg == null ? "bad reward" : msg);
      }
    }
    return new RewardConfigException(msg == null ? "bad reward" : msg);
  }

  /** Appends one row as a JSON array to {@code b} (rows are encoded one by one to size frames). */
  static void row(StringBuilder b, RewardInput in) {
    Json.write(
        b, List.of(in.dataSource(), in.prompt(), in.response(), in.groundTruth(), in.extraInfo()));
  }

  /** A {@code score} frame's text around rows already encoded by {@link #row}. */
  static String scoreFrame(CharSequence rowsJoined) {
    return "{\"t\":\"score\",\"rows\":[" + rowsJoined + "]}";
  }

  @SuppressWarnings("unchecked")
  static List<RewardInput> rows(Map<String, Object> score) {
    List<RewardInput> out = new ArrayList<>();
    for (Object o : list(score, "rows")) {
      List<Object> r = (List<Object>) o;
      out.add(
          new RewardInput(
              (String) r.get(0),
              (String) r.get(1),
              (String) r.get(2),
              (String) r.get(3),
              (Map<String, Object>) r.get(4)));
    }
    return out;
  }

  static Map<String, Object> ok(RewardResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", r.score());
    if (!r.extras().isEmpty()) {
      m.put("x", r.extras());
    }
    return m;
  }

  static Map<String, Object> error(Throwable t) {
    String line = String.valueOf(t).lines().findFirst().orElse(t.getClass().getName());
    return Map.of("e", line.length() > 500 ? line.substring(0, 500) + "..." : line);
  }

  static Map<String, Object> done(List<Map<String, Object>> items, int threads, boolean end) {
    Map<String, Object> m = message("done");
    m.put("items", items);
    m.put("th", threads);
    m.put("end", end);
    return m;
  }

  static boolean endsFrame(Map<String, Object> done) {
    return Boolean.TRUE.equals(done.get("end"));
  }

  /**
   * One result read back from a worker: a result, or an error message. A worker is not trusted:
   * anything but a finite score and a map of extras is an error.
   */
  sealed interface Item permits Scored, Failed {}

  record Scored(RewardResult result) implements Item {}

  record Failed(String message) implements Item {}

  static List<Item> items(Map<String, Object> done) {
    List<Item> out = new ArrayList<>();
    for (Object o : list(done, "items")) {
      out.add(item(o));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Item item(Object o) {
    if (!(o instanceof Map<?, ?> m)) {
      return new Failed("reward worker sent a malformed result");
    }
    if (m.get("e") instanceof String e) {
      return new Failed(e);
    }
    Object x = m.get("x");
    if (m.get("s") instanceof Number s
        && Double.isFinite(s.doubleValue())
        && (x == null || x instanceof Map)) {
      return new Scored(new RewardResult(s.doubleValue(), (Map<String, Object>) x));
    }
    return new Failed("reward worker sent a malformed result");
  }

  static String type(Map<String, Object> m) {
    return m.get(TYPE) instanceof String s ? s : "";
  }

  static String str(Map<String, Object> m, String key) {
    return m.get(key) instanceof String s ? s : null;
  }

  static int threads(Map<String, Object> done) {
    return done.get("th") instanceof Number n ? n.intValue() : 0;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Map<String, Object> m) {
    return m.get("kwargs") instanceof Map<?, ?> kw ? (Map<String, Object>) kw : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Map<String, Object> m, String key) {
    if (!(m.get(key) instanceof List<?> l)) {
      throw new IllegalArgumentException("message '" + type(m) + "' has no list '" + key + "'");
    }
    return (List<Object>) l;
  }

  private static Map<String, Object> message(String type) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(TYPE, type);
    return m;
  }
}
