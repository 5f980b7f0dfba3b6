package dev.javelin.rewards;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One rollout to score, mirroring VeRL's {@code compute_score(data_source, solution_str,
 * ground_truth, extra_info)} arguments plus the decoded prompt.
 *
 * <p>Every field is non-null after construction: nulls become empty strings / an empty map so that
 * a malformed row reaches the reward function (and scores 0) instead of crashing the loop.
 *
 * @param dataSource the row's data source, e.g. {@code openai/gsm8k}; routes the default dispatcher
 * @param prompt the decoded prompt (may be empty when the caller does not keep it)
 * @param response the decoded model response
 * @param groundTruth the reference answer, in the form the chosen function documents
 * @param extraInfo free-form per-row metadata (read-only copy)
 */
public record RewardInput(
    String dataSource,
    String prompt,
    String response,
    String groundTruth,
    Map<String, Object> extraInfo) {

  /** Replaces nulls and freezes {@code extraInfo} (null values are allowed inside it). */
  public RewardInput {
    dataSource = dataSource == null ? "" : dataSource;
    prompt = prompt == null ? "" : prompt;
    response = response == null ? "" : response;
    groundTruth = groundTruth == null ? "" : groundTruth;
    extraInfo =
        extraInfo == null || extraInfo.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(extraInfo));
  }

  /**
   * The last {@code chars} characters of the response, or all of it when shorter: where VeRL's
   * scorers look for an answer, so that a long chain of thought cannot make scoring slow.
   */
  public String responseTail(int chars) {
    return response.length() > chars ? response.substring(response.length() - chars) : response;
  }

  /** A rollout with no prompt and no extra info. */
  public static RewardInput of(String dataSource, String response, String groundTruth) {
    return new RewardInput(dataSource, "", response, groundTruth, Map.of());
  }
}
