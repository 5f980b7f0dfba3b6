package dev.javelin.datasets;

import dev.javelin.datasets.load.JsonlLoader;
import dev.javelin.datasets.load.ParquetLoader;
import java.util.ArrayList;
import java.util.List;

/** Entry point: load a dataset described by a {@link DatasetSpec}. */
public final class Datasets {
  private Datasets() {}

  /**
   * Reads the whole dataset. Malformed rows are skipped and counted in the result.
   *
   * @throws DatasetException when the file is missing or unreadable, or a required column is absent
   */
  public static LoadResult load(DatasetSpec spec) {
    return switch (spec.format()) {
      case JSONL -> JsonlLoader.load(spec);
      case PARQUET -> ParquetLoader.load(spec);
    };
  }

  /**
   * Loads several files in order and concatenates them, as VeRL does for a list of {@code
   * data.train_files}; skipped counts add up and error messages keep their file names.
   */
  public static LoadResult loadAll(List<DatasetSpec> specs) {
    if (specs.isEmpty()) {
      throw new IllegalArgumentException("no dataset specs given");
    }
    List<Example> examples = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    int skipped = 0;
    for (DatasetSpec spec : specs) {
      LoadResult result = load(spec);
      examples.addAll(result.examples());
      skipped += result.skipped();
      result.errors().stream().limit(LoadResult.MAX_ERRORS - errors.size()).forEach(errors::add);
    }
    return new LoadResult(examples, skipped, errors);
  }
}
