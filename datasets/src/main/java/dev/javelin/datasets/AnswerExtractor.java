package dev.javelin.datasets;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** How the ground truth is taken from a raw answer field. */
public enum AnswerExtractor {
  /** The field as is, trimmed (MATH-500's {@code answer} is already the boxed content). */
  VERBATIM {
    @Override
    public Optional<String> extract(String raw) {
      String trimmed = raw.strip();
      return trimmed.isEmpty() ? Optional.empty() : Optional.of(trimmed);
    }
  },
  /**
   * GSM8K: the number after {@code #### } at the end of the worked solution, commas removed, as in
   * VeRL's {@code extract_solution} ({@code #### (\-?[0-9\.\,]+)}).
   */
  GSM8K_HASHES {
    @Override
    public Optional<String> extract(String raw) {
      Matcher matcher = GSM8K_FINAL.matcher(raw);
      if (!matcher.find()) {
        return Optional.empty();
      }
      String number = matcher.group(1).replace(",", "");
      return number.isEmpty() ? Optional.empty() : Optional.of(number);
    }
  };

  private static final Pattern GSM8K_FINAL = Pattern.compile("#### (-?[0-9.,]+)");

  /** The ground truth, or empty when the raw answer has none. */
  public abstract Optional<String> extract(String raw);
}
