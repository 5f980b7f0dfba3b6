package dev.javelin.backend.runtime;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.testing.RelError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Slot decoding gives a full forward's logits for every row, while rows sit at different lengths,
 * one row is idle for a step, and another restarts at position 0 with a new prompt over the stale
 * cache entries of its previous occupant, then again through a batched row prefill; finally the
 * batch shrinks to two rows.
 */
class SlotDecoderTest {
  private static final int S = 16;

  @ParameterizedTest
  @ValueSource(strings = {"ref", "cpu"})
  void rowsDecodeIndependentlyAndRestart(String spec) {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    try (Device device = Devices.open(spec);
        PolicyModel model = PolicyModel.of(device, fx.checkpoint());
        SlotDecoder slots = SlotDecoder.open(model, 3, S)) {
      List<List<Integer>> seqs = new ArrayList<>();
      seqs.add(new ArrayList<>(List.of(5, 9, 2, 41, 7)));
      seqs.add(new ArrayList<>(List.of(3, 3, 80)));
      seqs.add(new ArrayList<>(List.of(11, 12, 13, 14)));
      List<int[]> prompts = new ArrayList<>();
      seqs.forEach(s -> prompts.add(toArray(s)));
      Tensor.F32 logits = slots.prefill(prompts);
      assertRows("prefill", model, seqs, new boolean[] {true, true, true}, logits);

      int[][] feeds = {{17, 4, 60}, {4, 8, 8}, {33, 1, 2}, {6, 7, 5}};
      for (int step = 0; step < feeds.length; step++) {
        boolean[] active = {true, true, step != 1}; // row 2 idles for one step
        if (step == 1) {
          seqs.set(1, new ArrayList<>()); // row 1 takes a new request from position 0
        }
        int[] positions = new int[3];
        for (int r = 0; r < 3; r++) {
          positions[r] = seqs.get(r).size();
          if (active[r]) {
            seqs.get(r).add(feeds[step][r]);
          }
        }
        logits = slots.step(feeds[step], positions, active);
        assertRows("step " + step, model, seqs, active, logits);
      }
      // row 1 takes a new prompt in a batched prefill; rows 0 and 2 keep their caches
      seqs.set(1, new ArrayList<>(List.of(7, 8, 9, 10, 11, 12)));
      logits = slots.prefillRows(new int[] {1}, List.of(toArray(seqs.get(1))));
      assertRows("prefillRows", model, List.of(seqs.get(1)), new boolean[] {true}, logits);
      int[] next = {30, 31, 32};
      int[] at = new int[3];
      for (int r = 0; r < 3; r++) {
        at[r] = seqs.get(r).size();
        seqs.get(r).add(next[r]);
      }
      logits = slots.step(next, at, new boolean[] {true, true, true});
      assertRows("step after prefillRows", model, seqs, new boolean[] {true, true, true}, logits);

      // shrink to rows 2 and 0 (in that order): their caches move along
      slots.compact(new int[] {2, 0});
      List<List<Integer>> kept = new ArrayList<>(List.of(seqs.get(2), seqs.get(0)));
      int[] positions = {kept.get(0).size(), kept.get(1).size()};
      kept.get(0).add(21);
      kept.get(1).add(22);
      logits = slots.step(new int[] {21, 22}, positions, new boolean[] {true, true});
      assertRows("after compact", model, kept, new boolean[] {true, true}, logits);
    }
  }

  /** Each active row's logits equal the last-position logits of a full forward over its tokens. */
  private static void assertRows(
      String what, PolicyModel model, List<List<Integer>> seqs, boolean[] active, Tensor.F32 got) {
    int v = model.config().vocabSize();
    for (int r = 0; r < seqs.size(); r++) {
      if (!active[r]) {
        continue;
      }
      int[] ids = toArray(seqs.get(r));
      float[] expected = lastLogits(model, ids);
      float[] actual = Arrays.copyOfRange(got.data(), r * v, (r + 1) * v);
      RelError.assertClose(
          what + " row " + r,
          new Tensor.F32(Shape.of(v), expected),
          new Tensor.F32(Shape.of(v), actual),
          1e-4);
    }
  }

  private static float[] lastLogits(PolicyModel model, int[] ids) {
    ModelConfig c = model.config();
    // causal attention: a padding column after the tokens leaves their logits unchanged
    TokenBatch batch = TokenBatch.rightPadded(List.of(ids), 2);
    int t = ids.length;
    int tb = batch.length();
    Executable exe =
        model.executable(
            ProgramSpec.of(
                "forward_b1_t" + tb, () -> ModelPrograms.forward(c, 1, tb, c.maxPositions())));
    List<DeviceBuffer> out = model.run(exe, model.tokenInputs(batch, 1f));
    Tensor.F32 logits = (Tensor.F32) out.get(0).toHost();
    out.forEach(DeviceBuffer::close);
    int v = c.vocabSize();
    return Arrays.copyOfRange(logits.data(), (t - 1) * v, t * v); // (V) at the last token
  }

  private static int[] toArray(List<Integer> xs) {
    return xs.stream().mapToInt(Integer::intValue).toArray();
  }
}
