package dev.javelin.datasets.load;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.javelin.datasets.DatasetException;
import dev.javelin.datasets.DatasetSpec;
import dev.javelin.datasets.Datasets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;

/**
 * Contract: any bytes as a VeRL parquet file load with their bad rows counted, or fail with {@link
 * DatasetException} naming the file; never another exception, never more than 10 s on one input.
 * The parquet decoding itself is DuckDB's native code, which the fuzzer cannot see into, so this
 * target is mutation-driven there and coverage-driven in the row conversion.
 */
class ParquetFuzzTest {
  /** Counted rows are logged one line per file: too many lines at fuzzing speed. */
  private static final Logger QUIET = Logger.getLogger("dev.javelin.datasets");

  @BeforeAll
  static void quiet() {
    QUIET.setLevel(Level.SEVERE);
  }

  @FuzzTest(maxDuration = "12s")
  @Timeout(10)
  void anyFileLoadsOrFailsTyped(byte[] bytes) throws IOException {
    Path file = Files.createTempFile("fuzz", ".parquet");
    try {
      Files.write(file, bytes);
      try {
        Datasets.load(DatasetSpec.verlParquet(file));
      } catch (DatasetException expected) {
        // typed
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
