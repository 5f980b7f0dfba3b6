package dev.javelin.backend.xla;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A PJRT device spec with an optional chip set: {@code xla:cpu}, {@code tpu@0-3}, {@code
 * xla:gpu@2}, {@code xla:cpu@0,1}. The part after {@code @} lists PJRT device ids and inclusive
 * ranges; without it the device binds every addressable chip. Parsed here only, so every caller
 * reports a bad spec with the same line.
 *
 * @param plugin the plugin part, e.g. {@code xla:cpu} or {@code tpu}
 * @param chips the PJRT ids named after {@code @}, in the order given; empty for all chips
 */
public record ChipSpec(String plugin, Optional<List<Integer>> chips) {
  private static final String FORM =
      "expected <device>[@<chips>], chips as PJRT device ids or ranges, e.g. xla:cpu@2, tpu@0,1"
          + " or tpu@0-3";

  public ChipSpec {
    chips = chips.map(List::copyOf);
  }

  /** Parses {@code spec}; a malformed chip list is one line naming the spec and the form. */
  public static ChipSpec parse(String spec) {
    int at = spec.indexOf('@');
    if (at < 0) {
      return new ChipSpec(spec, Optional.empty());
    }
    String list = spec.substring(at + 1);
    Set<Integer> ids = new LinkedHashSet<>();
    for (String part : list.split(",", -1)) {
      String p = part.trim();
      if (!p.matches("[0-9]{1,5}(-[0-9]{1,5})?")) {
        throw bad(spec, FORM);
      }
      String[] ends = p.split("-", -1);
      int from = Integer.parseInt(ends[0]);
      int to = ends.length == 2 ? Integer.parseInt(ends[1]) : from;
      if (to < from) {
        throw bad(spec, "range " + p + " runs backwards; " + FORM);
      }
      for (int id = from; id <= to; id++) {
        if (!ids.add(id)) {
          throw bad(spec, "chip " + id + " is listed twice");
        }
      }
    }
    return new ChipSpec(spec.substring(0, at), Optional.of(new ArrayList<>(ids)));
  }

  /** The spec binding {@code chips} of {@code plugin}, ranges folded: {@code tpu@0-3,6}. */
  public static String format(String plugin, List<Integer> chips) {
    if (chips.isEmpty()) {
      throw new IllegalArgumentException("a chip set for " + plugin + " needs at least one chip");
    }
    List<String> parts = new ArrayList<>();
    int i = 0;
    while (i < chips.size()) {
      int j = i;
      while (j + 1 < chips.size() && chips.get(j + 1) == chips.get(j) + 1) {
        j++;
      }
      parts.add(j > i ? chips.get(i) + "-" + chips.get(j) : Integer.toString(chips.get(i)));
      i = j + 1;
    }
    return plugin + "@" + String.join(",", parts);
  }

  /** The plugin part of {@code spec} (everything before {@code @}), without validating the rest. */
  public static String pluginOf(String spec) {
    int at = spec.indexOf('@');
    return at < 0 ? spec : spec.substring(0, at);
  }

  private static IllegalArgumentException bad(String spec, String why) {
    return new IllegalArgumentException("device spec '" + spec + "': " + why);
  }
}
