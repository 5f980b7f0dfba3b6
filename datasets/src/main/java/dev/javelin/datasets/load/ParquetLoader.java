package dev.javelin.datasets.load;

import dev.javelin.datasets.DatasetException;
import dev.javelin.datasets.DatasetSpec;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.LoadResult;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Loads VeRL-layout parquet through DuckDB's {@code read_parquet}.
 *
 * <p>Nested columns ({@code prompt}, {@code reward_model}, {@code extra_info}) come back as JSON
 * text ({@code to_json}) and are parsed with a bounded Jackson parser, so no driver-specific nested
 * types leak out and every nested value is size- and depth-checked. Row numbers are DuckDB's
 * 0-based {@code file_row_number} plus one.
 */
public final class ParquetLoader {
  private static final String DATA_SOURCE = "data_source";
  private static final String PROMPT = "prompt";
  private static final String ABILITY = "ability";
  private static final String REWARD_MODEL = "reward_model";
  private static final String EXTRA_INFO = "extra_info";

  private static final Pattern GLOB = Pattern.compile("[*?\\[\\]{}]");

  private ParquetLoader() {}

  /** Reads {@code spec.path()}; see {@link dev.javelin.datasets.Datasets#load}. */
  public static LoadResult load(DatasetSpec spec) {
    DatasetFiles.requireReadable(spec.path());
    String file = spec.path().toAbsolutePath().toString();
    if (GLOB.matcher(file).find()) {
      // read_parquet expands globs; a literal '[' or '*' in a name would silently read other files.
      throw new DatasetException(
          "parquet path must not contain glob characters * ? [ ] { }: "
              + file
              + "; rename the file");
    }
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
      Map<String, String> columns = describe(connection, file);
      requireColumn(columns, PROMPT, spec);
      requireColumn(columns, REWARD_MODEL, spec);
      if (spec.dataSource() == null) {
        requireColumn(columns, DATA_SOURCE, spec);
      }
      return readRows(connection, file, columns, spec);
    } catch (SQLException e) {
      // DuckDB appends the failing SQL with a caret on further lines: keep its first line only.
      String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("").strip();
      throw new DatasetException(
          "cannot read parquet file "
              + file
              + ": "
              + why
              + " (is it a complete parquet file? VeRL's are written by pandas.to_parquet)",
          e);
    }
  }

  private static Map<String, String> describe(Connection connection, String file)
      throws SQLException {
    Map<String, String> columns = new LinkedHashMap<>();
    try (PreparedStatement describe =
        connection.prepareStatement("DESCRIBE SELECT * FROM read_parquet(?)")) {
      describe.setString(1, file);
      try (ResultSet rows = describe.executeQuery()) {
        while (rows.next()) {
          columns.put(rows.getString("column_name"), rows.getString("column_type"));
        }
      }
    }
    return columns;
  }

  private static void requireColumn(Map<String, String> columns, String name, DatasetSpec spec) {
    if (!columns.containsKey(name)) {
      throw new DatasetException(
          "column '"
              + name
              + "' missing in parquet file "
              + spec.path()
              + " (columns: "
              + columns.keySet()
              + "); expected VeRL's layout");
    }
  }

  private static LoadResult readRows(
      Connection connection, String file, Map<String, String> columns, DatasetSpec spec)
      throws SQLException {
    VerlRowConverter converter = new VerlRowConverter(spec);
    RowErrors errors = new RowErrors(spec.path());
    List<Example> examples = new ArrayList<>();
    try (PreparedStatement select = connection.prepareStatement(selectSql(columns))) {
      select.setString(1, file);
      select.setLong(2, spec.limits().maxRows());
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          long rowIndex = rows.getLong(1);
          VerlRowConverter.RawRow raw =
              new VerlRowConverter.RawRow(
                  rowIndex,
                  rows.getString(2),
                  rows.getString(3),
                  rows.getString(4),
                  rows.getString(5),
                  rows.getString(6));
          try {
            examples.add(converter.convert(raw));
          } catch (MalformedRowException e) {
            errors.skip(rowIndex + 1, e.getMessage());
          }
        }
      }
    }
    return errors.result(examples);
  }

  /** Column names are fixed constants here, never user text, so building SQL from them is safe. */
  private static String selectSql(Map<String, String> columns) {
    return "SELECT file_row_number, "
        + optional(columns, DATA_SOURCE, false)
        + ", "
        + optional(columns, PROMPT, true)
        + ", "
        + optional(columns, ABILITY, false)
        + ", "
        + optional(columns, REWARD_MODEL, true)
        + ", "
        + optional(columns, EXTRA_INFO, true)
        + " FROM read_parquet(?, file_row_number = true) ORDER BY file_row_number LIMIT ?";
  }

  private static String optional(Map<String, String> columns, String name, boolean asJson) {
    if (!columns.containsKey(name)) {
      return "NULL";
    }
    String quoted = '"' + name + '"';
    return asJson ? "CAST(to_json(" + quoted + ") AS VARCHAR)" : "CAST(" + quoted + " AS VARCHAR)";
  }
}
