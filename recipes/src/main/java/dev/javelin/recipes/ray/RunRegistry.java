package dev.javelin.recipes.ray;

import io.ray.api.ActorHandle;
import io.ray.api.Ray;
import io.ray.api.options.ActorLifetime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Ray actor behind {@code javelin status}: a named, detached actor ({@value #NAME} in namespace
 * {@value #NAMESPACE}) that every cluster-mode driver tells its latest progress, and that {@code
 * status} reads. It outlives the jobs that report to it, holds the newest report of the last
 * {@value #MAX_RUNS} runs, and only stores text: reports are one-line JSON strings ({@link
 * RunRegistryProgress}) and {@link #reports} answers one string, so every call crosses Ray as
 * MessagePack strings and nothing goes through Ray's Java-object (FST) serializer.
 */
public final class RunRegistry {
  /** The actor's name. */
  public static final String NAME = "javelin-runs";

  /** Its namespace, fixed so that any driver (each job has its own namespace) finds it. */
  public static final String NAMESPACE = "javelin";

  static final int MAX_RUNS = 32;
  static final int MAX_REPORT_CHARS = 16 * 1024;
  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9_.:@/-]{1,200}");
  private final Map<String, String> runs = new LinkedHashMap<>();

  /** An empty registry (Ray creates it). */
  public RunRegistry() {}

  /** Records the newest report of a run; returns false (and keeps nothing) for a bad one. */
  public boolean report(String runId, String progressJson) {
    if (runId == null
        || !RUN_ID.matcher(runId).matches()
        || progressJson == null
        || progressJson.length() > MAX_REPORT_CHARS
        || progressJson.indexOf('\n') >= 0) {
      return false;
    }
    runs.remove(runId); // re-insert: the map is ordered by last report
    runs.put(runId, progressJson);
    for (Iterator<String> it = runs.keySet().iterator(); runs.size() > MAX_RUNS; ) {
      it.next();
      it.remove();
    }
    return true;
  }

  /** The newest report of every run, oldest first, one per line. */
  public String reports() {
    return String.join("\n", runs.values());
  }

  /** Splits {@link #reports}' answer into reports. */
  public static List<String> lines(String reports) {
    List<String> out = new ArrayList<>();
    for (String line : reports.lines().toList()) {
      if (!line.isBlank()) {
        out.add(line);
      }
    }
    return out;
  }

  /** The registry actor, when one runs on the cluster this driver is connected to. */
  public static Optional<ActorHandle<RunRegistry>> find() {
    return Ray.getActor(NAME, NAMESPACE);
  }

  /** The registry actor, created (detached) when none runs yet. */
  public static ActorHandle<RunRegistry> findOrCreate() {
    Optional<ActorHandle<RunRegistry>> found = find();
    if (found.isPresent()) {
      return found.get();
    }
    try {
      return Ray.actor(RunRegistry::new)
          .setName(NAME, NAMESPACE)
          .setLifetime(ActorLifetime.DETACHED)
          .setMaxRestarts(3)
          .remote();
    } catch (RuntimeException e) {
      // Another driver created it between our lookup and our creation.
      return find().orElseThrow(() -> e);
    }
  }
}
