package dev.javelin.datasets.load;

import dev.javelin.datasets.Example;
import dev.javelin.datasets.LoadResult;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Collects skipped rows while loading: an exact count and the first messages. */
final class RowErrors {
  private static final System.Logger LOG = System.getLogger(RowErrors.class.getName());

  private final Path path;
  private final List<String> messages = new ArrayList<>();
  private int skipped;

  RowErrors(Path path) {
    this.path = path;
  }

  /** Counts row {@code rowNumber} (1-based) as skipped for {@code reason}. */
  void skip(long rowNumber, String reason) {
    skipped++;
    if (messages.size() < LoadResult.MAX_ERRORS) {
      messages.add(path.getFileName() + " row " + rowNumber + ": " + reason);
    }
  }

  LoadResult result(List<Example> examples) {
    if (skipped > 0) {
      LOG.log(
          Level.WARNING,
          "{0}: skipped {1} malformed rows, first: {2}",
          path,
          skipped,
          messages.get(0));
    }
    return new LoadResult(examples, skipped, messages);
  }
}
