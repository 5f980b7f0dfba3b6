/**
 * Dataset loaders behind {@link dev.javelin.datasets.Datasets#load}: JSONL with a field mapping and
 * VeRL-layout parquet through DuckDB, both bounded in size and counting malformed rows.
 */
package dev.javelin.datasets.load;
