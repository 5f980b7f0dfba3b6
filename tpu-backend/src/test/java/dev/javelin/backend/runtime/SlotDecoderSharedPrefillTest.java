package dev.javelin.backend.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.testing.RelError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Prefilling each distinct prompt once and copying its cache to the rows that repeat it (GRPO's n
 * samples per prompt) gives the logits of prefilling every row, at the prefill and in the decode
 * steps that read the copied caches, for a full prefill and for a row refill: bitwise on the
 * reference device, whose sums do not depend on the batch. The cpu device's OpenBLAS products round
 * a row differently when the number of rows changes (even the per-row path gives a prompt other
 * last bits in a batch of another size), so there the match is to float rounding.
 */
class SlotDecoderSharedPrefillTest {
  private static final ModelConfig CONFIG =
      new ModelConfig(40, 32, 64, 2, 4, 2, 8, 10_000, 1e-6, true, true, 32, LlamaFamily.QWEN2);
  private static final int ROWS = 12;
  private static final int S = 24;

  /** How a shared-prefill result is held against the per-row one. */
  private interface Match {
    void check(String what, Tensor.F32 perRow, Tensor.F32 shared);
  }

  @Test
  void sharedPrefillIsBitwisePerRowPrefillOnTheReferenceDevice() {
    sharedPrefillMatchesPerRowPrefill("ref", SlotDecoderSharedPrefillTest::assertBitwise);
  }

  @Test
  void sharedPrefillMatchesPerRowPrefillOnTheCpuDevice() {
    sharedPrefillMatchesPerRowPrefill(
        "cpu", (what, perRow, shared) -> RelError.assertClose(what, perRow, shared, 1e-5));
  }

  private static void sharedPrefillMatchesPerRowPrefill(String spec, Match match) {
    Random rnd = new Random(7);
    try (Device device = Devices.open(spec);
        PolicyModel model = PolicyModel.of(device, ModelCheckpoint.random(CONFIG, 3, 0.3));
        SlotDecoder shared = SlotDecoder.open(model, ROWS, S);
        SlotDecoder perRow = SlotDecoder.openPerRow(model, ROWS, S)) {
      // 3 distinct prompts x 4 copies, shuffled; copies are equal arrays, not the same instance
      List<int[]> distinct = List.of(prompt(rnd, 5), prompt(rnd, 3), prompt(rnd, 7));
      List<int[]> prompts = new ArrayList<>();
      for (int copy = 0; copy < ROWS / distinct.size(); copy++) {
        distinct.forEach(p -> prompts.add(p.clone()));
      }
      Collections.shuffle(prompts, rnd);
      match.check("prefill", perRow.prefill(prompts), shared.prefill(prompts));
      assertTrue(compiled(model, "prefill_b4_t7_s" + S), "3 distinct prompts padded to 4 rows");
      assertTrue(compiled(model, "slot_gather_b4_to" + ROWS + "_s" + S), "gathered to 12 rows");

      int[] positions = new int[ROWS];
      for (int r = 0; r < ROWS; r++) {
        positions[r] = prompts.get(r).length;
      }
      decodeAlike("after prefill", perRow, shared, positions, rnd, match);

      // refill 5 rows with 2 distinct prompts, one of them equal to a prompt already in the cache
      int[] targets = {7, 2, 10, 5, 0};
      int[] fresh = prompt(rnd, 6);
      List<int[]> refill =
          List.of(fresh, distinct.get(1).clone(), fresh.clone(), fresh, distinct.get(1).clone());
      match.check(
          "prefillRows", perRow.prefillRows(targets, refill), shared.prefillRows(targets, refill));
      assertTrue(compiled(model, "slot_merge_b" + ROWS + "_n2_s" + S), "2 distinct refills");
      for (int j = 0; j < targets.length; j++) {
        positions[targets[j]] = refill.get(j).length;
      }
      decodeAlike("after prefillRows", perRow, shared, positions, rnd, match);
    }
  }

  @Test
  void distinctPromptsKeepThePerRowPrograms() {
    Random rnd = new Random(11);
    try (Device device = Devices.open("cpu");
        PolicyModel model = PolicyModel.of(device, ModelCheckpoint.random(CONFIG, 5, 0.3));
        SlotDecoder slots = SlotDecoder.open(model, 4, S)) {
      // 3 distinct of 4 rows pad to 4: sharing would save nothing, so no gather runs
      int[] twice = prompt(rnd, 4);
      slots.prefill(List.of(twice, prompt(rnd, 5), twice.clone(), prompt(rnd, 2)));
      assertTrue(compiled(model, "prefill_b4_t5_s" + S));
      assertFalse(compiled(model, "slot_gather_b4_to4_s" + S), "no gather when nothing is saved");
    }
  }

  /** Feeds both decoders the same random tokens for a few steps, all rows active. */
  private static void decodeAlike(
      String what, SlotDecoder perRow, SlotDecoder shared, int[] positions, Random rnd, Match m) {
    boolean[] active = new boolean[ROWS];
    Arrays.fill(active, true);
    for (int step = 0; step < 3; step++) {
      int[] tokens = new int[ROWS];
      for (int r = 0; r < ROWS; r++) {
        tokens[r] = 1 + rnd.nextInt(CONFIG.vocabSize() - 1); // rows diverge, as sampled rows do
      }
      String label = what + ", step " + step;
      m.check(
          label, perRow.step(tokens, positions, active), shared.step(tokens, positions, active));
      for (int r = 0; r < ROWS; r++) {
        positions[r]++;
      }
    }
  }

  private static void assertBitwise(String what, Tensor.F32 perRow, Tensor.F32 shared) {
    assertArrayEquals(perRow.shape().dims(), shared.shape().dims(), what + ": shape");
    assertArrayEquals(perRow.data(), shared.data(), what + ": logits differ");
  }

  /** Whether {@code model} has compiled the program named {@code key} (compiles nothing). */
  private static boolean compiled(PolicyModel model, String key) {
    try {
      model.executable(
          ProgramSpec.of(
              key,
              () -> {
                throw new NotCompiled();
              }));
      return true;
    } catch (NotCompiled e) {
      return false;
    }
  }

  private static final class NotCompiled extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  private static int[] prompt(Random rnd, int length) {
    int[] ids = new int[length];
    for (int i = 0; i < length; i++) {
      ids[i] = 1 + rnd.nextInt(CONFIG.vocabSize() - 1);
    }
    return ids;
  }
}
