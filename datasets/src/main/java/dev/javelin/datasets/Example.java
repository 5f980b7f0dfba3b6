package dev.javelin.datasets;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One training or validation prompt, shaped like a VeRL parquet row.
 *
 * <p>{@code extraInfo} holds JSON-like immutable values only: {@code String}, {@code Long}, {@code
 * Double}, {@code Boolean}, {@code BigInteger}, {@code List<Object>} and {@code Map<String,
 * Object>}. Its iteration order is the insertion order so that printing and hashing are
 * reproducible.
 *
 * @param uid stable id, see {@link #uid(String, long, List, String)}; GRPO groups are keyed by it
 * @param dataSource selects the reward function, e.g. {@code openai/gsm8k}
 * @param prompt the chat messages given to the policy (never empty)
 * @param groundTruth what the reward function compares the response with
 * @param extraInfo free-form metadata (row index, split, raw fields, task parameters)
 */
public record Example(
    String uid,
    String dataSource,
    List<ChatMessage> prompt,
    String groundTruth,
    Map<String, Object> extraInfo) {

  private static final int UID_HASH_BYTES = 6; // 12 hex digits

  public Example {
    requireNonBlank(uid, "uid");
    requireNonBlank(dataSource, "dataSource");
    Objects.requireNonNull(groundTruth, "groundTruth");
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(extraInfo, "extraInfo");
    if (prompt.isEmpty()) {
      throw new IllegalArgumentException("prompt must have at least one message (uid " + uid + ")");
    }
    prompt = List.copyOf(prompt);
    extraInfo = copyOrdered(extraInfo);
  }

  /** Total characters over all prompt messages, the cheap pre-tokenizer size bound. */
  public int promptChars() {
    int chars = 0;
    for (ChatMessage message : prompt) {
      chars += message.content().length();
    }
    return chars;
  }

  /**
   * A stable uid: {@code <dataSource>#<index>:<hash>}, where the hash is the first 12 hex digits of
   * SHA-256 over the data source, the prompt and the ground truth. The index keeps ids readable;
   * the hash keeps rows with the same index in different files (train vs. test) apart and changes
   * when the content does.
   */
  public static String uid(
      String dataSource, long index, List<ChatMessage> prompt, String groundTruth) {
    MessageDigest sha = sha256();
    update(sha, dataSource);
    for (ChatMessage message : prompt) {
      update(sha, message.role());
      update(sha, message.content());
    }
    update(sha, groundTruth);
    String hash = HexFormat.of().formatHex(sha.digest(), 0, UID_HASH_BYTES);
    return dataSource + "#" + index + ":" + hash;
  }

  private static void update(MessageDigest sha, String field) {
    sha.update(field.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0); // separator: ("ab","c") and ("a","bc") must hash differently
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  private static Map<String, Object> copyOrdered(Map<String, Object> source) {
    Map<String, Object> copy = new LinkedHashMap<>();
    source.forEach(
        (key, value) -> {
          Objects.requireNonNull(key, "extraInfo key");
          copy.put(key, Objects.requireNonNull(value, () -> "extraInfo value for key " + key));
        });
    return Collections.unmodifiableMap(copy);
  }

  private static void requireNonBlank(String value, String field) {
    Objects.requireNonNull(value, field);
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }
}
