package dev.javelin.backend.model;

import java.util.Locale;

/**
 * How a program runs the decoder's layers: {@link #UNROLLED}, one copy of the block per layer (the
 * default), or {@link #SCANNED}, one loop over the layer weights stacked (L, ...), whose compile
 * time does not grow with depth. Chosen for the log-prob and train-step programs with the JVM
 * property {@value #PROPERTY} ({@code unrolled} or {@code scanned}).
 */
public enum LayerLoop {
  UNROLLED,
  SCANNED;

  public static final String PROPERTY = "javelin.layers";

  /** The mode the {@value #PROPERTY} property names; {@link #UNROLLED} when unset. */
  public static LayerLoop configured() {
    String v = System.getProperty(PROPERTY, "unrolled").trim().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "unrolled", "" -> UNROLLED;
      case "scanned", "scan" -> SCANNED;
      default ->
          throw new IllegalArgumentException(
              "-D" + PROPERTY + "=" + v + ": expected unrolled or scanned");
    };
  }
}
