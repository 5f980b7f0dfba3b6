package dev.javelin.backend.checkpoint.gguf;

import java.nio.file.Path;

/** A malformed or unsupported GGUF file: names the file and what is wrong with it. */
public class GgufException extends IllegalArgumentException {
  public GgufException(Path file, String problem) {
    super(file + ": " + problem);
  }

  public GgufException(Path file, String problem, Throwable cause) {
    super(file + ": " + problem, cause);
  }
}
