package dev.javelin.rewards.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A countdown puzzle: reach {@code target} using each of {@code numbers} exactly once.
 *
 * @param target the value to reach
 * @param numbers the numbers to use (a multiset)
 */
record CountdownPuzzle(long target, List<Long> numbers) {

  /** Freezes the numbers. */
  CountdownPuzzle {
    numbers = List.copyOf(numbers);
  }

  /**
   * Reads the task from {@code extraInfo} ({@code target}, {@code numbers} or {@code nums}) or,
   * failing that, from a ground truth like {@code {"target": 24, "numbers": [3, 4, 6, 1]}}.
   */
  static CountdownPuzzle from(String groundTruth, Map<String, Object> extraInfo) {
    Object t = extraInfo.get("target");
    Object n = extraInfo.containsKey("numbers") ? extraInfo.get("numbers") : extraInfo.get("nums");
    if (t instanceof Number tn && n instanceof List<?> list) {
      List<Long> nums = new ArrayList<>();
      for (Object o : list) {
        if (!(o instanceof Number num)) {
          throw new IllegalArgumentException("countdown: non-numeric entry in numbers: " + o);
        }
        nums.add(num.longValue());
      }
      return new CountdownPuzzle(tn.longValue(), nums);
    }
    return parse(groundTruth);
  }

  /**
   * Parses {@code "target": N} and {@code "numbers"|"nums": [a, b, ...]} out of a JSON-like text.
   */
  static CountdownPuzzle parse(String gt) {
    Long target = numberAfter(gt, "target");
    int key = gt.indexOf("numbers");
    if (key < 0) {
      key = gt.indexOf("nums");
    }
    int open = key < 0 ? -1 : gt.indexOf('[', key);
    int close = open < 0 ? -1 : gt.indexOf(']', open);
    if (target == null || close < 0) {
      throw new IllegalArgumentException(
          "countdown: ground truth must look like {\"target\": 24, \"numbers\": [1, 2, 3]}, got "
              + abbreviate(gt));
    }
    List<Long> nums = new ArrayList<>();
    for (String part : gt.substring(open + 1, close).split(",", -1)) {
      String p = part.strip();
      if (!p.isEmpty()) {
        nums.add(parseLong(p, gt));
      }
    }
    return new CountdownPuzzle(target, nums);
  }

  private static Long numberAfter(String gt, String key) {
    int k = gt.indexOf(key);
    if (k < 0) {
      return null;
    }
    int i = gt.indexOf(':', k);
    if (i < 0) {
      return null;
    }
    int start = i + 1;
    while (start < gt.length() && (gt.charAt(start) == ' ' || gt.charAt(start) == '"')) {
      start++;
    }
    int end = start;
    while (end < gt.length() && (Character.isDigit(gt.charAt(end)) || gt.charAt(end) == '-')) {
      end++;
    }
    return end > start ? parseLong(gt.substring(start, end), gt) : null;
  }

  private static long parseLong(String s, String gt) {
    try {
      return Long.parseLong(s.replace("\"", "").strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "countdown: bad number '" + s + "' in " + abbreviate(gt), e);
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 120 ? s.substring(0, 120) + "..." : s;
  }
}
