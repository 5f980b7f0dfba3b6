package dev.javelin.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DatasetsTest {

  @Test
  void loadAllConcatenatesFilesInOrder() {
    DatasetSpec gsm8k = DatasetSpec.gsm8k(SharedData.path("gsm8k/test.jsonl")).withMaxRows(3);
    DatasetSpec math = DatasetSpec.math500(SharedData.path("math500/test.jsonl")).withMaxRows(2);
    LoadResult result = Datasets.loadAll(List.of(gsm8k, math));
    assertEquals(
        List.of(
            "openai/gsm8k",
            "openai/gsm8k",
            "openai/gsm8k",
            "HuggingFaceH4/MATH-500",
            "HuggingFaceH4/MATH-500"),
        result.examples().stream().map(Example::dataSource).toList());
    assertEquals(0, result.skipped());
    assertEquals(5, result.examples().stream().map(Example::uid).distinct().count());
    assertThrows(IllegalArgumentException.class, () -> Datasets.loadAll(List.of()));
  }
}
