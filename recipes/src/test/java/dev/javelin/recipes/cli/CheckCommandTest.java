package dev.javelin.recipes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code javelin check}: resolves and validates everything, prints it, runs nothing. */
class CheckCommandTest {
  private record Result(int code, String out, String err) {}

  private static Result check(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] all = new String[args.length + 1];
    all[0] = "check";
    System.arraycopy(args, 0, all, 1, args.length);
    int code =
        Main.run(
            all,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aGoodRecipePrintsWhatTakesEffectTheNotesAndTheMemoryAndRunsNothing(@TempDir Path tmp) {
    Path run = tmp.resolve("run");
    Path model = tmp.resolve("model");
    Result r =
        check(
            "recipes/arith-grpo.yaml",
            "data.train_batch_size=16",
            "actor_rollout_ref.model.path=" + model,
            "actor_rollout_ref.rollout.gpu_memory_utilization=0.6",
            "trainer.default_local_dir=" + run);
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("  data.train_batch_size = 16"), r.out());
    assertTrue(
        r.out()
            .contains("note: actor_rollout_ref.rollout.gpu_memory_utilization=0.6 has no effect"),
        r.out());
    assertTrue(r.out().contains("does not exist yet; run warms it up first"), r.out());
    assertTrue(r.out().contains("memory estimate: "), r.out());
    assertTrue(r.out().contains("outside it"), r.out());
    assertTrue(r.out().contains("heap: "), r.out());
    assertTrue(r.out().contains("data: "), r.out());
    assertTrue(r.out().endsWith("ok: nothing was run\n"), r.out());
    assertFalse(Files.exists(run), "no run directory");
    assertFalse(Files.exists(model), "no warm-up");
  }

  @Test
  void everyProblemIsALineAndTheExitIsTwo(@TempDir Path tmp) {
    Result r =
        check(
            "recipes/gsm8k-grpo.yaml",
            "data.train_files=" + tmp.resolve("missing.parquet"),
            "actor_rollout_ref.model.path=" + tmp.resolve("no-model"),
            "actor_rollout_ref.model.tokenizer_path=char",
            "actor_rollout_ref.actor.use_torch_compile=False");
    assertEquals(Main.USAGE, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("note: actor_rollout_ref.actor.use_torch_compile"), r.out());
    assertTrue(r.err().contains("missing.parquet"), r.err());
    assertTrue(r.err().contains("no-model"), r.err());
    assertEquals(r.err().lines().distinct().count(), r.err().lines().count(), "each said once");
    assertFalse(r.out().contains("ok: nothing was run"), r.out());
  }

  @Test
  void unknownKeysAreAllNamedAtOnce() {
    Result r = check("recipes/arith-grpo.yaml", "data.trian_batch_size=16", "trainer.foo=1");
    assertEquals(Main.USAGE, r.code());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("2 unknown recipe keys"), r.err());
    assertTrue(r.err().contains("did you mean 'data.train_batch_size'"), r.err());
  }
}
