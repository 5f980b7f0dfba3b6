package dev.javelin.datasets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BatchSamplerTest {

  private static List<Example> examples(int n) {
    List<Example> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<ChatMessage> prompt = List.of(ChatMessage.user("p" + i));
      out.add(new Example(Example.uid("t", i, prompt, ""), "t", prompt, "", Map.of()));
    }
    return out;
  }

  private static List<List<String>> run(BatchSampler sampler, int steps) {
    List<List<String>> batches = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      batches.add(sampler.next().stream().map(Example::uid).toList());
    }
    return batches;
  }

  @Test
  void everyEpochVisitsEachExampleOnceWithDropLastOff() {
    BatchSampler sampler = new BatchSampler(examples(10), new DataOrderConfig(4, false, true, 7));
    assertEquals(3, sampler.batchesPerEpoch());
    for (int epoch = 0; epoch < 3; epoch++) {
      List<List<String>> batches = run(sampler, 3);
      assertEquals(List.of(4, 4, 2), batches.stream().map(List::size).toList());
      Set<String> seen = new HashSet<>();
      batches.forEach(seen::addAll);
      assertEquals(10, seen.size());
      assertEquals(new DataOrderState(epoch, 10, 7), sampler.state());
    }
  }

  @Test
  void dropLastSkipsThePartialBatch() {
    BatchSampler sampler = new BatchSampler(examples(10), new DataOrderConfig(4, true, true, 7));
    assertEquals(2, sampler.batchesPerEpoch());
    List<List<String>> batches = run(sampler, 4);
    batches.forEach(batch -> assertEquals(4, batch.size()));
    assertEquals(new DataOrderState(1, 8, 7), sampler.state());
  }

  @Test
  void epochsAreReshuffledAndSeedDetermined() {
    DataOrderConfig config = new DataOrderConfig(50, true, true, 11);
    List<List<String>> first = run(new BatchSampler(examples(50), config), 2);
    assertEquals(first, run(new BatchSampler(examples(50), config), 2));
    assertNotEquals(first.get(0), first.get(1), "epoch 1 must be reshuffled");
    List<List<String>> otherSeed =
        run(new BatchSampler(examples(50), new DataOrderConfig(50, true, true, 12)), 1);
    assertNotEquals(first.get(0), otherSeed.get(0));
  }

  @Test
  void noShuffleKeepsFileOrder() {
    List<Example> data = examples(5);
    BatchSampler sampler = new BatchSampler(data, new DataOrderConfig(2, false, false, 0));
    List<List<String>> batches = run(sampler, 4);
    assertEquals(List.of(data.get(0).uid(), data.get(1).uid()), batches.get(0));
    assertEquals(List.of(data.get(4).uid()), batches.get(2));
    assertEquals(List.of(data.get(0).uid(), data.get(1).uid()), batches.get(3));
  }

  @Test
  void resumeFromSavedStateGivesIdenticalBatches() throws Exception {
    List<Example> data = examples(23);
    DataOrderConfig config = new DataOrderConfig(5, true, true, 1234);
    List<List<String>> uninterrupted = run(new BatchSampler(data, config), 20);

    BatchSampler before = new BatchSampler(data, config);
    List<List<String>> firstPart = run(before, 7);
    ObjectMapper json = new ObjectMapper();
    String saved = json.writeValueAsString(before.state()); // the checkpoint
    DataOrderState restored = json.readValue(saved, DataOrderState.class);
    assertEquals(before.state(), restored);
    BatchSampler after = new BatchSampler(examples(23), config, restored);
    List<List<String>> secondPart = run(after, 13);

    List<List<String>> resumed = new ArrayList<>(firstPart);
    resumed.addAll(secondPart);
    assertEquals(uninterrupted, resumed);
  }

  @Test
  void rejectsInconsistentSetups() {
    DataOrderConfig config = new DataOrderConfig(4, true, true, 0);
    assertThrows(IllegalArgumentException.class, () -> new BatchSampler(List.of(), config));
    IllegalArgumentException tooBig =
        assertThrows(IllegalArgumentException.class, () -> new BatchSampler(examples(3), config));
    assertTrue(tooBig.getMessage().contains("trainBatchSize ("), tooBig.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> new BatchSampler(examples(5), config, new DataOrderState(0, 6, 0)));
    assertThrows(IllegalArgumentException.class, () -> new DataOrderState(-1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> new DataOrderConfig(0, true, true, 0));
  }
}
