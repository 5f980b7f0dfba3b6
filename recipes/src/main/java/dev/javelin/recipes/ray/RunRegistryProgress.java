package dev.javelin.recipes.ray;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.recipes.metrics.BoundedMapper;
import java.util.Objects;

/**
 * One run's latest progress as the {@link RunRegistry} stores it (JSON text).
 *
 * @param runId unique per driver process: experiment, host, pid and start time
 * @param experiment {@code trainer.experiment_name}
 * @param job the Ray job's submission id, or empty when the run was not submitted as a job
 * @param state {@code running}, {@code finished}, {@code stopped} or {@code failed}
 * @param step the last finished step (0 = validation before training)
 * @param totalSteps the run's last step
 * @param reward mean training score of the last step ({@code critic/score/mean}; NaN = none)
 * @param accuracy latest held-out accuracy (the mean over data sources of {@code
 *     val-core/<source>/acc/mean@1}; NaN = none yet)
 * @param tokensPerSecond {@code perf/throughput} of the last step
 * @param secondsPerStep mean wall time per step of this process
 * @param etaSeconds estimated time to the last step
 * @param updatedMillis when the driver sent this (epoch millis)
 */
public record RunRegistryProgress(
    String runId,
    String experiment,
    String job,
    String state,
    int step,
    int totalSteps,
    double reward,
    double accuracy,
    double tokensPerSecond,
    double secondsPerStep,
    double etaSeconds,
    long updatedMillis) {
  private static final ObjectMapper JSON = BoundedMapper.of(4, RunRegistry.MAX_REPORT_CHARS);

  /** Validates. */
  public RunRegistryProgress {
    Objects.requireNonNull(runId, "runId");
    experiment = experiment == null ? "" : experiment;
    job = job == null ? "" : job;
    Objects.requireNonNull(state, "state");
  }

  /** A copy in another state (the run ended). */
  public RunRegistryProgress withState(String newState, long nowMillis) {
    return new RunRegistryProgress(
        runId,
        experiment,
        job,
        newState,
        step,
        totalSteps,
        reward,
        accuracy,
        tokensPerSecond,
        secondsPerStep,
        newState.equals("running") ? etaSeconds : 0,
        nowMillis);
  }

  /** The JSON text the registry stores; NaN numbers are written as null. */
  public String toJson() {
    ObjectNode o = JSON.createObjectNode();
    o.put("run", runId).put("experiment", experiment).put("job", job).put("state", state);
    o.put("step", step).put("total", totalSteps);
    putNumber(o, "reward", reward);
    putNumber(o, "accuracy", accuracy);
    putNumber(o, "tokens_per_s", tokensPerSecond);
    putNumber(o, "s_per_step", secondsPerStep);
    putNumber(o, "eta_s", etaSeconds);
    o.put("updated_ms", updatedMillis);
    return o.toString();
  }

  /** Reads a report; a malformed one is an {@link IllegalArgumentException} naming the problem. */
  public static RunRegistryProgress fromJson(String text) {
    JsonNode o;
    try {
      o = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("malformed run report: " + e.getOriginalMessage(), e);
    }
    if (o == null || !o.isObject() || !o.hasNonNull("run") || !o.hasNonNull("state")) {
      throw new IllegalArgumentException("malformed run report: no run or state");
    }
    return new RunRegistryProgress(
        o.get("run").asText(),
        o.path("experiment").asText(""),
        o.path("job").asText(""),
        o.get("state").asText(),
        o.path("step").asInt(0),
        o.path("total").asInt(0),
        number(o, "reward"),
        number(o, "accuracy"),
        number(o, "tokens_per_s"),
        number(o, "s_per_step"),
        number(o, "eta_s"),
        o.path("updated_ms").asLong(0));
  }

  private static void putNumber(ObjectNode o, String key, double v) {
    if (Double.isFinite(v)) {
      o.put(key, v);
    } else {
      o.putNull(key);
    }
  }

  private static double number(JsonNode o, String key) {
    JsonNode v = o.get(key);
    return v != null && v.isNumber() ? v.asDouble() : Double.NaN;
  }
}
