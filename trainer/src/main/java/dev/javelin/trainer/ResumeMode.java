package dev.javelin.trainer;

import java.nio.file.Path;

/**
 * {@code trainer.resume_mode}: where a run starts from.
 *
 * <ul>
 *   <li>{@code auto}: the latest checkpoint under {@code default_local_dir}, else from scratch
 *   <li>{@code disable}: always from scratch
 *   <li>a path: that {@code global_step_N} directory (it must exist)
 * </ul>
 */
public sealed interface ResumeMode {

  /** Resume from the latest checkpoint when there is one. */
  record Auto() implements ResumeMode {}

  /** Never resume. */
  record Disable() implements ResumeMode {}

  /** Resume from this checkpoint directory. */
  record FromPath(Path dir) implements ResumeMode {
    /** Requires a path. */
    public FromPath {
      if (dir == null) {
        throw new IllegalArgumentException("dir must not be null");
      }
    }
  }

  /** Parses {@code auto}, {@code disable} or a checkpoint path. */
  static ResumeMode parse(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          "resume mode must be auto, disable or a checkpoint path, got '" + value + "'");
    }
    return switch (value.strip()) {
      case "auto" -> new Auto();
      case "disable" -> new Disable();
      default -> new FromPath(Path.of(value.strip()));
    };
  }
}
