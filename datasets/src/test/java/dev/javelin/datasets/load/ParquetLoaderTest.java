package dev.javelin.datasets.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.DatasetException;
import dev.javelin.datasets.DatasetFormat;
import dev.javelin.datasets.DatasetSpec;
import dev.javelin.datasets.Datasets;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.LoadLimits;
import dev.javelin.datasets.LoadResult;
import dev.javelin.datasets.PromptTemplate;
import dev.javelin.datasets.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetLoaderTest {
  private static final String VERL_TABLE =
      "CREATE TABLE t(data_source VARCHAR, prompt STRUCT(role VARCHAR, content VARCHAR)[],"
          + " ability VARCHAR, reward_model STRUCT(style VARCHAR, ground_truth VARCHAR),"
          + " extra_info STRUCT(\"index\" BIGINT, split VARCHAR))";

  @TempDir Path dir;

  /** Writes a parquet file with DuckDB: the statements build table t, which is then copied out. */
  private Path parquet(String... statements) throws SQLException {
    Path file = dir.resolve("data.parquet");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
      statement.execute("COPY t TO '" + file + "' (FORMAT parquet)");
    }
    return file;
  }

  @Test
  void readsTheSharedVerlGsm8kParquet() {
    LoadResult result =
        Datasets.load(DatasetSpec.verlParquet(SharedData.path("verl-gsm8k/test.parquet")));
    assertEquals(1319, result.examples().size());
    assertEquals(0, result.skipped(), () -> result.errors().toString());
    Example first = result.examples().get(0);
    assertEquals("openai/gsm8k", first.dataSource());
    assertEquals("18", first.groundTruth());
    assertEquals(List.of("system", "user"), first.prompt().stream().map(m -> m.role()).toList());
    assertTrue(first.prompt().get(1).content().startsWith("Janet\u2019s ducks lay 16 eggs"));
    assertEquals(0L, first.extraInfo().get("index"));
    assertEquals("test", first.extraInfo().get("split"));
    assertEquals("math", first.extraInfo().get("ability"));
    assertEquals("rule", first.extraInfo().get("reward_style"));
    assertTrue((Boolean) first.extraInfo().get("need_tools_kwargs"));
    Map<?, ?> interaction = (Map<?, ?>) first.extraInfo().get("interaction_kwargs");
    assertEquals("18", interaction.get("ground_truth"));
    assertTrue(first.uid().startsWith("openai/gsm8k#0:"), first.uid());
  }

  @Test
  void groundTruthsMatchTheJsonlExtraction() {
    List<String> fromParquet =
        Datasets.load(DatasetSpec.verlParquet(SharedData.path("verl-gsm8k/test.parquet")))
            .examples()
            .stream()
            .map(Example::groundTruth)
            .toList();
    List<String> fromJsonl =
        Datasets.load(DatasetSpec.gsm8k(SharedData.path("gsm8k/test.jsonl"))).examples().stream()
            .map(Example::groundTruth)
            .toList();
    assertEquals(fromJsonl, fromParquet);
  }

  @Test
  void maxRowsLimitsTheRead() {
    Path file = SharedData.path("verl-gsm8k/test.parquet");
    LoadResult result = Datasets.load(DatasetSpec.verlParquet(file).withMaxRows(5));
    assertEquals(5, result.examples().size());
    assertEquals(4L, result.examples().get(4).extraInfo().get("index"));
  }

  @Test
  void malformedRowsAreSkippedWithRowNumbers() throws SQLException {
    Path file =
        parquet(
            VERL_TABLE,
            "INSERT INTO t VALUES ('s', [{'role':'user','content':'ok'}], 'math',"
                + " {'style':'rule','ground_truth':'1'}, {'index':0,'split':'train'})",
            "INSERT INTO t VALUES ('s', [], 'math', {'style':'rule','ground_truth':'2'}, NULL)",
            "INSERT INTO t VALUES ('s', NULL, 'math', {'style':'rule','ground_truth':'3'}, NULL)",
            "INSERT INTO t VALUES ('s', [{'role':'user','content':'q'}], 'math',"
                + " {'style':'rule','ground_truth':NULL}, NULL)",
            "INSERT INTO t VALUES ('s', [{'role':NULL,'content':'q'}], 'math',"
                + " {'style':'rule','ground_truth':'5'}, NULL)",
            "INSERT INTO t VALUES (NULL, [{'role':'user','content':'q'}], 'math',"
                + " {'style':'rule','ground_truth':'6'}, NULL)",
            "INSERT INTO t VALUES ('s', [{'role':'user','content':'"
                + "w".repeat(300)
                + "'}],"
                + " 'math', {'style':'rule','ground_truth':'7'}, NULL)",
            "INSERT INTO t VALUES ('s', [{'role':'user','content':'fine'}], NULL,"
                + " {'style':'rule','ground_truth':'8'}, NULL)");
    LoadLimits limits = new LoadLimits(Integer.MAX_VALUE, 200, 1 << 20);
    LoadResult result = Datasets.load(DatasetSpec.verlParquet(file).withLimits(limits));
    assertEquals(List.of("1", "8"), result.examples().stream().map(Example::groundTruth).toList());
    assertEquals(6, result.skipped());
    List<String> errors = result.errors();
    assertTrue(errors.get(0).contains("row 2: prompt must be a non-empty list"), errors.get(0));
    assertTrue(errors.get(1).contains("row 3: prompt is null"), errors.get(1));
    assertTrue(errors.get(2).contains("row 4: reward_model.ground_truth"), errors.get(2));
    assertTrue(errors.get(3).contains("row 5: prompt[0] needs a non-blank role"), errors.get(3));
    assertTrue(errors.get(4).contains("row 6: data_source"), errors.get(4));
    assertTrue(errors.get(5).contains("row 7: prompt has 300 chars"), errors.get(5));
    assertEquals(
        Map.of("index", 0L, "split", "train", "ability", "math", "reward_style", "rule"),
        result.examples().get(0).extraInfo());
  }

  @Test
  void dataSourceFromSpecFillsNullCells() throws SQLException {
    Path file =
        parquet(
            VERL_TABLE,
            "INSERT INTO t VALUES (NULL, [{'role':'user','content':'q'}], 'math',"
                + " {'style':'rule','ground_truth':'6'}, NULL)");
    DatasetSpec spec =
        new DatasetSpec(
            file, DatasetFormat.PARQUET, null, "synthetic/arith", null, LoadLimits.DEFAULT);
    Example example = Datasets.load(spec).examples().get(0);
    assertEquals("synthetic/arith", example.dataSource());
  }

  @Test
  void missingColumnStopsAndNamesIt() throws SQLException {
    Path file =
        parquet(
            "CREATE TABLE t AS SELECT 's' AS data_source,"
                + " {'style':'rule','ground_truth':'1'} AS reward_model");
    DatasetException e =
        assertThrows(DatasetException.class, () -> Datasets.load(DatasetSpec.verlParquet(file)));
    assertTrue(e.getMessage().contains("column 'prompt'"), e.getMessage());
    assertTrue(e.getMessage().contains("data.parquet"), e.getMessage());
  }

  @Test
  void missingFileAndNonParquetFileStopWithThePath() throws IOException {
    Path missing = dir.resolve("absent.parquet");
    DatasetException notFound =
        assertThrows(DatasetException.class, () -> Datasets.load(DatasetSpec.verlParquet(missing)));
    assertTrue(notFound.getMessage().contains("absent.parquet"), notFound.getMessage());
    Path text = Files.writeString(dir.resolve("fake.parquet"), "not parquet");
    DatasetException unreadable =
        assertThrows(DatasetException.class, () -> Datasets.load(DatasetSpec.verlParquet(text)));
    assertTrue(unreadable.getMessage().contains("fake.parquet"), unreadable.getMessage());
    Path globby = Files.writeString(dir.resolve("a[1].parquet"), "x");
    DatasetException glob =
        assertThrows(DatasetException.class, () -> Datasets.load(DatasetSpec.verlParquet(globby)));
    assertTrue(glob.getMessage().contains("glob"), glob.getMessage());
  }

  @Test
  void specRejectsJsonlOnlyFieldsForParquet() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new DatasetSpec(
                    Path.of("x.parquet"),
                    DatasetFormat.PARQUET,
                    null,
                    null,
                    PromptTemplate.GSM8K,
                    LoadLimits.DEFAULT));
    assertTrue(e.getMessage().contains("template applies to jsonl only"), e.getMessage());
  }
}
