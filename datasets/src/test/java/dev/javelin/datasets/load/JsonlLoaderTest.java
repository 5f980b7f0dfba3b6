package dev.javelin.datasets.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.ChatMessage;
import dev.javelin.datasets.DatasetException;
import dev.javelin.datasets.DatasetSpec;
import dev.javelin.datasets.Datasets;
import dev.javelin.datasets.Example;
import dev.javelin.datasets.LoadLimits;
import dev.javelin.datasets.LoadResult;
import dev.javelin.datasets.PromptTemplate;
import dev.javelin.datasets.SharedData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlLoaderTest {
  @TempDir Path dir;

  private Path write(String content) throws IOException {
    Path file = dir.resolve("data.jsonl");
    Files.writeString(file, content, StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void loadsGsm8kTestWithVerlPrompt() {
    LoadResult result = Datasets.load(DatasetSpec.gsm8k(SharedData.path("gsm8k/test.jsonl")));
    assertEquals(1319, result.examples().size());
    assertEquals(0, result.skipped(), () -> result.errors().toString());
    Example first = result.examples().get(0);
    assertEquals("openai/gsm8k", first.dataSource());
    assertEquals("18", first.groundTruth());
    assertEquals(1, first.prompt().size());
    ChatMessage user = first.prompt().get(0);
    assertEquals("user", user.role());
    assertTrue(
        user.content().startsWith("Janet\u2019s ducks lay 16 eggs per day."), user.content());
    assertTrue(user.content().endsWith("output the final answer after \"####\"."));
    assertEquals(0L, first.extraInfo().get("index"));
    assertTrue(((String) first.extraInfo().get("answer")).endsWith("#### 18"));
    assertTrue(first.uid().startsWith("openai/gsm8k#0:"), first.uid());
    assertEquals(1319, result.examples().stream().map(Example::uid).distinct().count());
    result.examples().forEach(e -> assertTrue(e.groundTruth().matches("-?[0-9.]+"), e.uid()));
  }

  @Test
  void loadsGsm8kTrainWithCommasRemoved() {
    LoadResult result = Datasets.load(DatasetSpec.gsm8k(SharedData.path("gsm8k/train.jsonl")));
    assertEquals(7473, result.examples().size());
    assertEquals(0, result.skipped(), () -> result.errors().toString());
    result.examples().forEach(e -> assertTrue(!e.groundTruth().contains(","), e.uid()));
  }

  @Test
  void loadsMath500() {
    LoadResult result = Datasets.load(DatasetSpec.math500(SharedData.path("math500/test.jsonl")));
    assertEquals(500, result.examples().size());
    assertEquals(0, result.skipped(), () -> result.errors().toString());
    Example first = result.examples().get(0);
    assertEquals("HuggingFaceH4/MATH-500", first.dataSource());
    assertEquals("\\left( 3, \\frac{\\pi}{2} \\right)", first.groundTruth());
    assertTrue(first.prompt().get(0).content().endsWith("final answer within \\boxed{}."));
    assertEquals("Precalculus", first.extraInfo().get("subject"));
    assertEquals(2L, first.extraInfo().get("level"));
  }

  @Test
  void gsm8kGroundTruthDropsThousandsSeparators() throws IOException {
    Path file =
        write(
            """
            {"question":"q","answer":"work\\n#### 1,234,567"}
            {"question":"q2","answer":"#### -3.5"}
            """);
    LoadResult result = Datasets.load(DatasetSpec.gsm8k(file));
    assertEquals(
        List.of("1234567", "-3.5"), result.examples().stream().map(Example::groundTruth).toList());
  }

  @Test
  void malformedRowsAreSkippedAndCountedWithRowNumbers() throws IOException {
    Path file =
        write(
            """
            {"question":"ok","answer":"#### 1"}
            {not json

            [1,2]
            {"question":"no marker","answer":"42"}
            {"answer":"#### 5"}
            {"question":null,"answer":"#### 5"}
            {"question":"ok2","answer":"#### 2"}""");
    LoadResult result = Datasets.load(DatasetSpec.gsm8k(file));
    assertEquals(List.of("1", "2"), result.examples().stream().map(Example::groundTruth).toList());
    assertEquals(5, result.skipped());
    List<String> errors = result.errors();
    assertTrue(errors.get(0).contains("row 2: invalid JSON"), errors.get(0));
    assertTrue(errors.get(1).contains("row 4: not a JSON object"), errors.get(1));
    assertTrue(errors.get(2).contains("row 5: no ground truth"), errors.get(2));
    assertTrue(errors.get(3).contains("row 6: field 'question'"), errors.get(3));
    assertTrue(errors.get(4).contains("row 7: field 'question'"), errors.get(4));
    // Data row indices skip blank lines: "ok2" is the 7th data row.
    assertEquals(6L, result.examples().get(1).extraInfo().get("index"));
  }

  @Test
  void oversizedRowsAndPromptsAreCountedNotLoaded() throws IOException {
    String longQuestion = "x".repeat(5_000);
    Path file =
        write(
            "{\"question\":\""
                + longQuestion
                + "\",\"answer\":\"#### 1\"}\n"
                + "{\"question\":\""
                + "y".repeat(500)
                + "\",\"answer\":\"#### 2\"}\n"
                + "{\"question\":\"fine\",\"answer\":\"#### 3\"}\n");
    LoadLimits limits = new LoadLimits(Integer.MAX_VALUE, 400, 1_000);
    LoadResult result = Datasets.load(DatasetSpec.gsm8k(file).withLimits(limits));
    assertEquals(List.of("3"), result.examples().stream().map(Example::groundTruth).toList());
    assertEquals(2, result.skipped());
    assertTrue(result.errors().get(0).contains("row 1: line longer than maxRowChars=1000"));
    assertTrue(result.errors().get(1).contains("row 2: prompt has"), result.errors().get(1));
  }

  @Test
  void maxRowsStopsEarly() {
    LoadResult result =
        Datasets.load(DatasetSpec.gsm8k(SharedData.path("gsm8k/test.jsonl")).withMaxRows(10));
    assertEquals(10, result.examples().size());
  }

  @Test
  void templateIsConfigurable() throws IOException {
    Path file = write("{\"question\":\"2+2\",\"answer\":\"#### 4\"}\n");
    PromptTemplate template = new PromptTemplate("qa", "You add.", "Q: {question} A:");
    Example example =
        Datasets.load(DatasetSpec.gsm8k(file).withTemplate(template)).examples().get(0);
    assertEquals(
        List.of(ChatMessage.system("You add."), ChatMessage.user("Q: 2+2 A:")), example.prompt());
  }

  @Test
  void missingFileNamesThePath() {
    Path missing = dir.resolve("nope.jsonl");
    DatasetException e =
        assertThrows(DatasetException.class, () -> Datasets.load(DatasetSpec.gsm8k(missing)));
    assertTrue(e.getMessage().contains("nope.jsonl"), e.getMessage());
    assertTrue(e.getMessage().contains("not found"), e.getMessage());
  }

  @Test
  void missingColumnStopsAndNamesIt() throws IOException {
    Path file = write("{\"problem\":\"q\",\"answer\":\"1\"}\n");
    DatasetException e =
        assertThrows(DatasetException.class, () -> Datasets.load(DatasetSpec.gsm8k(file)));
    assertTrue(e.getMessage().contains("column 'question'"), e.getMessage());
    assertTrue(e.getMessage().contains("[problem, answer]"), e.getMessage());
  }

  @Test
  void uidsAreStableAcrossLoads() {
    Path file = SharedData.path("math500/test.jsonl");
    List<String> first =
        Datasets.load(DatasetSpec.math500(file)).examples().stream().map(Example::uid).toList();
    List<String> second =
        Datasets.load(DatasetSpec.math500(file)).examples().stream().map(Example::uid).toList();
    assertEquals(first, second);
    assertEquals(500, new HashSet<>(first).size());
  }

  @Test
  void invalidUtf8IsReplacedAndHostileNestingIsCounted() throws IOException {
    Path file = dir.resolve("bytes.jsonl");
    byte[] head = "{\"question\":\"caf".getBytes(StandardCharsets.UTF_8);
    byte[] tail = "\",\"answer\":\"#### 1\"}\n".getBytes(StandardCharsets.UTF_8);
    String nested =
        "{\"question\":\"q\",\"answer\":\"#### 2\",\"x\":"
            + "[".repeat(200)
            + "]".repeat(200)
            + "}\n";
    try (var out = Files.newOutputStream(file)) {
      out.write(head);
      out.write(new byte[] {(byte) 0xC3, (byte) 0x28}); // invalid UTF-8 sequence
      out.write(tail);
      out.write(nested.getBytes(StandardCharsets.UTF_8));
    }
    LoadResult result = Datasets.load(DatasetSpec.gsm8k(file));
    assertEquals(1, result.examples().size());
    assertTrue(result.examples().get(0).prompt().get(0).content().startsWith("caf\uFFFD("));
    assertEquals(1, result.skipped());
    assertTrue(result.errors().get(0).contains("row 2: invalid JSON"), result.errors().get(0));
  }

  @Test
  void errorMessagesAreCappedButTheCountIsExact() throws IOException {
    StringBuilder content = new StringBuilder("{\"question\":\"q\",\"answer\":\"#### 1\"}\n");
    for (int i = 0; i < 150; i++) {
      content.append("{broken\n");
    }
    LoadResult result = Datasets.load(DatasetSpec.gsm8k(write(content.toString())));
    assertEquals(1, result.examples().size());
    assertEquals(150, result.skipped());
    assertEquals(LoadResult.MAX_ERRORS, result.errors().size());
    assertTrue(result.errors().get(99).contains("row 101:"), result.errors().get(99));
  }
}
