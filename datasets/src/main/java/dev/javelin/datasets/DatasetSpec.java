package dev.javelin.datasets;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a dataset lives and how to read it.
 *
 * <p>JSONL needs {@code fields}, {@code dataSource} and {@code template}. Parquet rows carry their
 * own data source and already-templated prompt, so {@code fields} and {@code template} must be null
 * there; {@code dataSource}, when set, fills rows whose {@code data_source} is null or absent.
 *
 * @param path the file
 * @param format its layout
 * @param fields JSONL field mapping (null for parquet)
 * @param dataSource the reward dispatcher key, e.g. {@code openai/gsm8k}
 * @param template renders JSONL questions into chat messages (null for parquet)
 * @param limits size bounds
 */
public record DatasetSpec(
    Path path,
    DatasetFormat format,
    FieldMapping fields,
    String dataSource,
    PromptTemplate template,
    LoadLimits limits) {

  /** GSM8K's data source name, as used by the rewards dispatcher. */
  public static final String GSM8K_SOURCE = "openai/gsm8k";

  /** MATH-500's data source name, as used by the rewards dispatcher. */
  public static final String MATH500_SOURCE = "HuggingFaceH4/MATH-500";

  public DatasetSpec {
    Objects.requireNonNull(path, "dataset spec: path");
    Objects.requireNonNull(format, "dataset spec: format");
    Objects.requireNonNull(limits, "dataset spec: limits");
    if (dataSource != null && dataSource.isBlank()) {
      throw new IllegalArgumentException("dataset spec: dataSource must not be blank");
    }
    switch (format) {
      case JSONL -> {
        requireSet(fields, "fields", path);
        requireSet(dataSource, "dataSource", path);
        requireSet(template, "template", path);
      }
      case PARQUET -> {
        requireUnset(fields, "fields", path);
        requireUnset(template, "template", path);
      }
    }
  }

  /** GSM8K JSONL with VeRL's instruction suffix. */
  public static DatasetSpec gsm8k(Path path) {
    return jsonl(path, FieldMapping.GSM8K, GSM8K_SOURCE, PromptTemplate.GSM8K);
  }

  /** MATH-500 JSONL with VeRL's {@code \boxed{}} instruction. */
  public static DatasetSpec math500(Path path) {
    return jsonl(path, FieldMapping.MATH500, MATH500_SOURCE, PromptTemplate.MATH);
  }

  private static DatasetSpec jsonl(
      Path path, FieldMapping fields, String dataSource, PromptTemplate template) {
    return new DatasetSpec(
        path, DatasetFormat.JSONL, fields, dataSource, template, LoadLimits.DEFAULT);
  }

  /** A VeRL-layout parquet file. */
  public static DatasetSpec verlParquet(Path path) {
    return new DatasetSpec(path, DatasetFormat.PARQUET, null, null, null, LoadLimits.DEFAULT);
  }

  /** This spec with other limits. */
  public DatasetSpec withLimits(LoadLimits newLimits) {
    return new DatasetSpec(path, format, fields, dataSource, template, newLimits);
  }

  /** This spec reading at most {@code rows} rows. */
  public DatasetSpec withMaxRows(int rows) {
    return withLimits(limits.withMaxRows(rows));
  }

  /** This spec with another prompt template (JSONL only). */
  public DatasetSpec withTemplate(PromptTemplate newTemplate) {
    return new DatasetSpec(path, format, fields, dataSource, newTemplate, limits);
  }

  private static void requireSet(Object value, String field, Path path) {
    if (value == null) {
      throw new IllegalArgumentException(
          "dataset spec for " + path + ": " + field + " is required for jsonl");
    }
  }

  private static void requireUnset(Object value, String field, Path path) {
    if (value != null) {
      throw new IllegalArgumentException(
          "dataset spec for "
              + path
              + ": "
              + field
              + " applies to jsonl only; parquet rows carry their own prompt messages");
    }
  }
}
