package dev.javelin.recipes.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A client for the Ray dashboard's Jobs REST API (Ray 2.9: {@code dashboard/modules/job/
 * job_head.py}): package upload, submit, list, info, logs, stop. Every call has a timeout; errors
 * become {@link JobsApiException}s that say what failed and quote the dashboard's answer.
 */
public final class JobsClient {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
  private final URI base;
  private final Duration timeout;
  private final HttpClient http;

  /**
   * @param dashboard the dashboard URL, e.g. {@code http://127.0.0.1:8265} (no scheme: http)
   * @param timeout per request (uploads get ten times as long)
   */
  public JobsClient(String dashboard, Duration timeout) {
    this.base = baseUri(dashboard);
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    // The dashboard is aiohttp: plain HTTP/1.1, no h2c upgrade.
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
  }

  /** The dashboard's base URL. */
  public URI base() {
    return base;
  }

  /** Ray's version, from {@code GET /api/version}: checks that a dashboard answers. */
  public String rayVersion() {
    JsonNode v = BoundedJson.parse(send(get("/api/version"), "GET /api/version"), "version");
    return BoundedJson.requiredText(v, "ray_version", "GET /api/version");
  }

  /** Whether the cluster holds the package ({@code GET /api/packages/gcs/<name>}: 200 or 404). */
  public boolean hasPackage(JobPackage p) {
    String what = "GET /api/packages/gcs/" + p.name();
    Answer r = exchange(get("/api/packages/gcs/" + p.name()), what);
    if (r.status() == 404) {
      return false;
    }
    check(r, what);
    return true;
  }

  /** Uploads the package ({@code PUT /api/packages/gcs/<name>}). */
  public void upload(JobPackage p) {
    HttpRequest req =
        request("/api/packages/gcs/" + p.name())
            .timeout(timeout.multipliedBy(10))
            .header("Content-Type", "application/octet-stream")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(p.zip()))
            .build();
    send(req, "PUT /api/packages/gcs/" + p.name());
  }

  /** Uploads the package unless the cluster has it; returns whether it uploaded. */
  public boolean uploadIfMissing(JobPackage p) {
    if (hasPackage(p)) {
      return false;
    }
    upload(p);
    return true;
  }

  /** Submits a job; returns its submission id. */
  public String submit(JobSubmission s) {
    HttpRequest req =
        request("/api/jobs/")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(s.toJson()))
            .build();
    JsonNode r = BoundedJson.parse(send(req, "POST /api/jobs/"), "POST /api/jobs/");
    return checkedId(BoundedJson.requiredText(r, "submission_id", "POST /api/jobs/"));
  }

  /** Every job the cluster knows, submitted or not. */
  public List<JobInfo> list() {
    JsonNode r = BoundedJson.parse(send(get("/api/jobs/"), "GET /api/jobs/"), "GET /api/jobs/");
    if (!r.isArray()) {
      throw new JobsApiException(
          "GET /api/jobs/: expected a JSON array, got " + r.getNodeType(), 0);
    }
    List<JobInfo> out = new ArrayList<>(r.size());
    r.forEach(j -> out.add(JobInfo.fromJson(j, "GET /api/jobs/")));
    return out;
  }

  /** One job; a {@link JobsApiException} with status 404 when there is none. */
  public JobInfo info(String id) {
    String what = "GET /api/jobs/" + checkedId(id);
    return JobInfo.fromJson(BoundedJson.parse(send(get("/api/jobs/" + id), what), what), what);
  }

  /** The job's whole log so far (stdout and stderr of its entrypoint). */
  public String logs(String id) {
    String what = "GET /api/jobs/" + checkedId(id) + "/logs";
    return BoundedJson.requiredText(
        BoundedJson.parse(send(get("/api/jobs/" + id + "/logs"), what), what), "logs", what);
  }

  /** Asks Ray to stop the job; false when it had already ended. */
  public boolean stop(String id) {
    String what = "POST /api/jobs/" + checkedId(id) + "/stop";
    HttpRequest req =
        request("/api/jobs/" + id + "/stop").POST(HttpRequest.BodyPublishers.noBody()).build();
    JsonNode r = BoundedJson.parse(send(req, what), what);
    JsonNode stopped = r.get("stopped");
    if (stopped == null || !stopped.isBoolean()) {
      throw new JobsApiException(what + ": no boolean 'stopped' in " + r, 0);
    }
    return stopped.booleanValue();
  }

  private HttpRequest get(String path) {
    return request(path).GET().build();
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
  }

  private String send(HttpRequest req, String what) {
    return check(exchange(req, what), what).body();
  }

  private Answer check(Answer r, String what) {
    int code = r.status();
    if (code / 100 != 2) {
      throw new JobsApiException(
          what
              + " at "
              + base
              + ": HTTP "
              + code
              + (code == 404 ? " (no such job or package)" : "")
              + ": "
              + BoundedJson.Excerpt.of(lastLine(r.body())),
          code);
    }
    return r;
  }

  private Answer exchange(HttpRequest req, String what) {
    try {
      HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
      return new Answer(r.statusCode(), readBounded(r.body(), what));
    } catch (HttpTimeoutException e) {
      throw new JobsApiException(
          what + ": the dashboard at " + base + " did not answer within " + seconds(req), e);
    } catch (ConnectException e) {
      throw new JobsApiException(
          "cannot reach the Ray dashboard at "
              + base
              + " ("
              + e.getClass().getSimpleName()
              + "): is the head running (tools/setup/ray-cluster.sh status) and is --address its"
              + " dashboard URL?",
          e);
    } catch (IOException e) {
      throw new JobsApiException(what + " at " + base + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JobsApiException(what + ": interrupted", e);
    }
  }

  private static String readBounded(InputStream in, String what) throws IOException {
    try (in) {
      byte[] b = in.readNBytes(BoundedJson.MAX_DOCUMENT_BYTES + 1);
      if (b.length > BoundedJson.MAX_DOCUMENT_BYTES) {
        throw new JobsApiException(
            what + ": answer over " + (BoundedJson.MAX_DOCUMENT_BYTES >> 20) + " MiB", null);
      }
      return new String(b, StandardCharsets.UTF_8);
    }
  }

  private static String seconds(HttpRequest req) {
    return req.timeout().map(d -> d.toMillis() / 1000.0 + " s").orElse("its timeout");
  }

  /** Python tracebacks end with the message that matters. */
  private static String lastLine(String body) {
    String t = body == null ? "" : body.strip();
    int nl = t.lastIndexOf('\n');
    return nl < 0 ? t : t.substring(nl + 1);
  }

  static String checkedId(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "job id '" + id + "': expected letters, digits, '_', '-' or '.' (e.g. raysubmit_abc)");
    }
    return id;
  }

  static URI baseUri(String dashboard) {
    Objects.requireNonNull(dashboard, "dashboard");
    String d = dashboard.strip();
    if (!d.contains("://")) {
      d = "http://" + d;
    }
    URI u = URI.create(d.endsWith("/") ? d : d + "/");
    if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
      throw new IllegalArgumentException(
          "--address '" + dashboard + "': expected the dashboard URL, e.g. http://127.0.0.1:8265");
    }
    return u;
  }

  /** An answer whose body was read, bounded, as text. */
  private record Answer(int status, String body) {}
}
