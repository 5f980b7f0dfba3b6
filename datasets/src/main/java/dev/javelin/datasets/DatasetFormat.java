package dev.javelin.datasets;

/** On-disk layout of a dataset file. */
public enum DatasetFormat {
  /** One JSON object per line; fields are picked by a {@link FieldMapping}. */
  JSONL,
  /**
   * VeRL's parquet layout: {@code data_source}, {@code prompt} (list of {role, content}), {@code
   * ability}, {@code reward_model} {style, ground_truth}, {@code extra_info}.
   */
  PARQUET
}
