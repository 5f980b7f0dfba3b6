package dev.javelin.recipes.ray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A chunk is regenerated after a reject or a death, boundedly, and each event is counted once. */
class ChunkRetryTest {

  /** Plays a script of outcomes: "ok", "bad" (malformed) or "dead" (sampler died). */
  private static final class Script implements ChunkRetry.Calls {
    private final List<String> outcomes;
    final List<String> log = new ArrayList<>();

    Script(String... outcomes) {
      this.outcomes = List.of(outcomes);
    }

    @Override
    public byte[] generate(int attempt) {
      String o = outcomes.get(attempt - 1);
      log.add("generate " + attempt);
      if (o.equals("dead")) {
        throw new SamplerDiedException("sampler process died", null);
      }
      return o.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void recover(SamplerDiedException e) {
      log.add("recover");
    }

    @Override
    public void rejected(MalformedRolloutException e) {
      log.add("rejected");
    }
  }

  private static String check(byte[] b) {
    String s = new String(b, StandardCharsets.UTF_8);
    if (!s.equals("ok")) {
      throw new MalformedRolloutException("token id 99 is outside the vocabulary");
    }
    return s;
  }

  @Test
  void aGoodFirstResultIsUsedAsIs() {
    Script s = new Script("ok");
    assertEquals("ok", new ChunkRetry(0, 8, 3).run(s, ChunkRetryTest::check));
    assertEquals(List.of("generate 1"), s.log);
  }

  @Test
  void aMalformedResultIsCountedAndRegenerated() {
    Script s = new Script("bad", "ok");
    assertEquals("ok", new ChunkRetry(0, 8, 3).run(s, ChunkRetryTest::check));
    assertEquals(List.of("generate 1", "rejected", "generate 2"), s.log);
  }

  @Test
  void aDeadSamplerIsRecoveredBeforeItsChunkIsRegenerated() {
    Script s = new Script("dead", "bad", "ok");
    assertEquals("ok", new ChunkRetry(1, 8, 3).run(s, ChunkRetryTest::check));
    assertEquals(List.of("generate 1", "recover", "generate 2", "rejected", "generate 3"), s.log);
  }

  @Test
  void givesUpAfterMaxAttemptsWithTheLastReason() {
    Script s = new Script("bad", "dead", "bad", "ok");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> new ChunkRetry(1, 8, 3).run(s, ChunkRetryTest::check));
    assertTrue(e.getMessage().contains("sampler 1 failed its 8 requests 3 times"), e.getMessage());
    assertTrue(e.getMessage().contains("outside the vocabulary"), e.getMessage());
    assertEquals(3, s.log.stream().filter(l -> l.startsWith("generate")).count());
  }
}
