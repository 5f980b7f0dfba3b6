package dev.javelin.backend.model;

import java.util.List;

/**
 * The fields of a checkpoint's config (config.json keys, or GGUF metadata) that a family adds to
 * the shared ones {@link ModelConfig} has, read by the family itself ({@link
 * Architecture#configured}). Readers fail with the key and the checkpoint named on a value of the
 * wrong type.
 */
public interface ConfigFields {
  int integer(String key, int fallback);

  double real(String key, double fallback);

  boolean flag(String key, boolean fallback);

  /** A list of integers; empty when the key is absent or null. */
  List<Integer> integers(String key);
}
