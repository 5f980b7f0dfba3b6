package dev.javelin.recipes.jobs;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The body of {@code POST /api/jobs/} ({@code JobSubmitRequest} in Ray 2.9).
 *
 * @param entrypoint the shell command the job runs (in its working dir)
 * @param workingDirUri the {@code gcs://_ray_pkg_*.zip} package unpacked as the job's working dir,
 *     or null
 * @param javaJarUris runtime-env {@code java_jars}: zip packages of jars, unpacked on the node
 * @param envVars environment of the entrypoint
 * @param metadata free-form labels shown by {@code jobs list}
 */
public record JobSubmission(
    String entrypoint,
    String workingDirUri,
    List<String> javaJarUris,
    Map<String, String> envVars,
    Map<String, String> metadata) {

  /** Validates. */
  public JobSubmission {
    Objects.requireNonNull(entrypoint, "entrypoint");
    if (entrypoint.isBlank()) {
      throw new IllegalArgumentException("entrypoint: empty");
    }
    javaJarUris = List.copyOf(javaJarUris);
    envVars = Map.copyOf(envVars);
    metadata = Map.copyOf(metadata);
  }

  /** The runtime env as Ray's JSON. */
  ObjectNode runtimeEnvJson() {
    ObjectNode env = BoundedJson.object();
    if (workingDirUri != null) {
      env.put("working_dir", workingDirUri);
    }
    if (!javaJarUris.isEmpty()) {
      ArrayNode jars = env.putArray("java_jars");
      javaJarUris.forEach(jars::add);
    }
    if (!envVars.isEmpty()) {
      ObjectNode vars = env.putObject("env_vars");
      envVars.forEach(vars::put);
    }
    return env;
  }

  /** The request body. */
  String toJson() {
    ObjectNode o = BoundedJson.object();
    o.put("entrypoint", entrypoint);
    o.set("runtime_env", runtimeEnvJson());
    if (!metadata.isEmpty()) {
      ObjectNode m = o.putObject("metadata");
      metadata.forEach(m::put);
    }
    return BoundedJson.write(o);
  }
}
