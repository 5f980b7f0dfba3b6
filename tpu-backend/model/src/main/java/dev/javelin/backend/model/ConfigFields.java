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

  /** A string; fallback when the key is absent or null. */
  String text(String key, String fallback);

  /** A list of strings; empty when the key is absent or null. */
  List<String> texts(String key);

  /** Whether the key is present with a value other than null. */
  boolean has(String key);

  /** The fields of the object under key (config.json nests some); empty when absent or null. */
  ConfigFields section(String key);
}
