package dev.javelin.recipes.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.DataOrderState;
import dev.javelin.datasets.Example;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchLogTest {
  private static DrawnBatch batch(int step, String... uids) {
    List<Example> ex =
        java.util.Arrays.stream(uids)
            .map(u -> new Example(u, "src", List.of(ChatMessage.user("q")), "a", Map.of()))
            .toList();
    return new DrawnBatch(step, ex, step / 3, DataOrderState.start(1));
  }

  @Test
  void writesOneLinePerStepAndDropsUncheckpointedStepsOnResume(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("batches.jsonl");
    try (BatchLog log = new BatchLog(file)) {
      log.resumeAt(0);
      for (int s = 1; s <= 4; s++) {
        log.write(batch(s, "a#" + s, "b\"" + s));
      }
    }
    assertEquals(
        "{\"step\":1,\"epoch\":0,\"ids\":[\"a#1\",\"b\\\"1\"]}", Files.readAllLines(file).get(0));
    try (BatchLog log = new BatchLog(file)) {
      log.resumeAt(2); // the checkpoint was at step 2: steps 3 and 4 run again
      log.write(batch(3, "c"));
    }
    List<String> lines = Files.readAllLines(file);
    assertEquals(3, lines.size(), String.join("\n", lines));
    assertEquals("{\"step\":3,\"epoch\":1,\"ids\":[\"c\"]}", lines.get(2));
  }
}
