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

/**
 * Contract: any bytes as a GSM8K or MATH-500 JSONL file load with their bad rows counted, or fail
 * with {@link DatasetException} naming the file; never another exception.
 */
class JsonlFuzzTest {
  /** Counted rows are logged one line per file: too many lines at fuzzing speed. */
  private static final Logger QUIET = Logger.getLogger("dev.javelin.datasets");

  @BeforeAll
  static void quiet() {
    QUIET.setLevel(Level.SEVERE);
  }

  @FuzzTest(maxDuration = "12s")
  void anyFileLoadsOrFailsTyped(byte[] bytes) throws IOException {
    Path file = Files.createTempFile("fuzz", ".jsonl");
    try {
      Files.write(file, bytes);
      for (DatasetSpec spec :
          new DatasetSpec[] {DatasetSpec.gsm8k(file), DatasetSpec.math500(file)}) {
        try {
          Datasets.load(spec);
        } catch (DatasetException expected) {
          // typed
        }
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
