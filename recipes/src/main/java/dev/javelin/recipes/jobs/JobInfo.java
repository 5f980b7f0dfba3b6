package dev.javelin.recipes.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One job as {@code GET /api/jobs/{id}} reports it.
 *
 * @param id the submission id ({@code raysubmit_...}), or the Ray job id of a driver job that was
 *     not submitted
 * @param type {@code SUBMISSION} or {@code DRIVER}
 * @param status its status
 * @param entrypoint the shell command
 * @param message Ray's explanation of the status (may be empty)
 * @param startMillis start time (epoch millis), 0 when not started
 * @param endMillis end time (epoch millis), 0 while running
 * @param metadata the submitter's metadata
 */
public record JobInfo(
    String id,
    String type,
    JobStatus status,
    String entrypoint,
    String message,
    long startMillis,
    long endMillis,
    Map<String, String> metadata) {

  /** Validates. */
  public JobInfo {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(status, "status");
    type = type == null ? "SUBMISSION" : type;
    entrypoint = entrypoint == null ? "" : entrypoint;
    message = message == null ? "" : message;
    metadata = Map.copyOf(metadata);
  }

  /** Reads one job object of the API. */
  static JobInfo fromJson(JsonNode o, String what) {
    if (!o.isObject()) {
      throw new JobsApiException(what + ": expected a job object, got " + o.getNodeType(), null);
    }
    String id = BoundedJson.text(o, "submission_id");
    if (id == null) {
      id = BoundedJson.requiredText(o, "job_id", what);
    }
    Map<String, String> meta = new LinkedHashMap<>();
    JsonNode m = o.get("metadata");
    if (m != null && m.isObject()) {
      m.properties().forEach(e -> meta.put(e.getKey(), e.getValue().asText()));
    }
    return new JobInfo(
        id,
        BoundedJson.text(o, "type"),
        JobStatus.parse(BoundedJson.requiredText(o, "status", what)),
        BoundedJson.text(o, "entrypoint"),
        BoundedJson.text(o, "message"),
        BoundedJson.longValue(o, "start_time", 0),
        BoundedJson.longValue(o, "end_time", 0),
        meta);
  }
}
