package dev.javelin.recipes.config;

/**
 * A recipe that cannot run: unknown key, wrong type, impossible combination, missing file. The
 * message names the key and says what to do; the run stops before any work is done.
 */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }

  public ConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
