package dev.javelin.backend.testing;

import java.util.function.Supplier;

/** Builds something with a JVM property set for the duration, restoring what was there before. */
public final class WithProperty {
  private WithProperty() {}

  /** {@code build} run with {@code name=value}; the property's earlier value (or absence) after. */
  public static <T> T with(String name, String value, Supplier<T> build) {
    String before = System.getProperty(name);
    System.setProperty(name, value);
    try {
      return build.get();
    } finally {
      if (before == null) {
        System.clearProperty(name);
      } else {
        System.setProperty(name, before);
      }
    }
  }
}
