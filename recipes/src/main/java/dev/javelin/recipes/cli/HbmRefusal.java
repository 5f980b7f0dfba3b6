package dev.javelin.recipes.cli;

import dev.javelin.backend.xla.PjrtException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * libtpu refuses to compile a program whose temporaries exceed the chip's HBM ("Ran out of memory
 * on HBM, the total memory required for HLO temporaries (44.35G) exceeds available HBM (31.25G)").
 * For {@code javelin plan} that is an answer, not an error: the program does not fit, and the
 * refusal says by how much.
 */
final class HbmRefusal {
  // XLA writes sizes with binary units and a one-letter suffix (HumanReadableNumBytes).
  private static final Pattern TEMPS =
      Pattern.compile(
          "required for HLO temporaries \\(([0-9]+(?:\\.[0-9]+)?)([KMGT]?)\\) exceeds available"
              + " HBM");

  private HbmRefusal() {}

  /** The temporaries' bytes libtpu reported when it refused for lack of HBM; empty otherwise. */
  static Optional<Long> tempBytes(PjrtException e) {
    Matcher m = TEMPS.matcher(String.valueOf(e.getMessage()));
    if (!m.find()) {
      return Optional.empty();
    }
    int shift =
        switch (m.group(2)) {
          case "K" -> 10;
          case "M" -> 20;
          case "G" -> 30;
          case "T" -> 40;
          default -> 0;
        };
    return Optional.of((long) (Double.parseDouble(m.group(1)) * (1L << shift)));
  }
}
