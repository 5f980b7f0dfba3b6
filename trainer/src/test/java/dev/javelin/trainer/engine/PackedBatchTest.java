package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.PrefixBatch;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.model.ModelConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class PackedBatchTest {
  private static final ModelConfig CONFIG = ModelConfig.tiny();

  private static final int[] LONG_PROMPT = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};

  // Row 0: prompt [1..13], response [4 5]; row 1: prompt [6], response [7 8 9]. Nothing is
  // shared, so the dense layout runs fewer token rows (2·16 vs 2·16 + 2·3).
  private final PackedBatch packed =
      PackedBatch.of(
          List.of(LONG_PROMPT, new int[] {6}),
          List.of(new int[] {4, 5}, new int[] {7, 8, 9}),
          CONFIG);

  private TokenBatch dense() {
    return assertInstanceOf(TokenBatch.class, packed.tokens());
  }

  /** A (B, C) model output whose entry is 10·row + column, so positions are visible. */
  private static Tensor.F32 positions(PackedBatch p) {
    int cols = p.tokens().scoredColumns();
    float[] v = new float[2 * cols];
    for (int i = 0; i < v.length; i++) {
      v[i] = 10 * (i / cols) + i % cols;
    }
    return new Tensor.F32(Shape.of(2, cols), v);
  }

  @Test
  void packsPromptThenResponseRightPadded() {
    assertEquals(15, dense().length());
    int[] ids = new int[30];
    System.arraycopy(LONG_PROMPT, 0, ids, 0, 13);
    ids[13] = 4;
    ids[14] = 5;
    ids[15] = 6;
    ids[16] = 7;
    ids[17] = 8;
    ids[18] = 9;
    assertArrayEquals(ids, dense().ids().data());
    float[] mask = new float[30];
    java.util.Arrays.fill(mask, 0, 19, 1f);
    assertArrayEquals(mask, dense().mask().data());
    assertEquals(3, packed.maxResponse());
  }

  @Test
  void responseTokenKOfRowIIsModelColumnPromptLengthPlusKMinusOne() {
    // Row 0's response starts at position 13 (logp column 12); row 1's at 1 (column 0).
    assertArrayEquals(new float[] {12, 13}, packed.responseValues(positions(packed), 0));
    assertArrayEquals(new float[] {10, 11, 12}, packed.responseValues(positions(packed), 1));
    assertArrayEquals(
        new double[] {12, 13, 0, 0, 10, 11, 12, 0}, packed.responseColumns(positions(packed), 4));
  }

  @Test
  void cotangentsScatterBackOnlyOntoResponseTokens() {
    double[] d = {1, 2, 99, 3, 4, 5}; // (B=2, R=3); 99 sits past row 0's end and must vanish
    Tensor.F32 back = packed.tokenColumns(d, 3);
    float[] want = new float[28]; // (2, 14)
    want[12] = 1;
    want[13] = 2;
    want[14] = 3;
    want[15] = 4;
    want[16] = 5;
    assertArrayEquals(want, back.data());
    assertArrayEquals(new float[28], packed.tokenColumns(null, 3).data());
    assertThrows(IllegalArgumentException.class, () -> packed.tokenColumns(d, 2));
  }

  @Test
  void responsesSharingAPromptUseThePrefixLayoutWhoseColumnsAreTheResponses() {
    // 8 responses to one 9-token prompt: 9 + 8·2 token rows shared vs 8·16 dense
    int[] prompt = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    List<int[]> prompts = java.util.Collections.nCopies(8, prompt);
    List<int[]> responses = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      responses.add(i % 2 == 0 ? new int[] {4, 5} : new int[] {7});
    }
    PackedBatch shared = PackedBatch.of(prompts, responses, CONFIG);
    PrefixBatch tokens = assertInstanceOf(PrefixBatch.class, shared.tokens());
    assertEquals(1, tokens.groups());
    assertEquals(2, tokens.scoredColumns());
    assertArrayEquals(new float[] {0, 1}, shared.responseValues(positions(shared), 0));
    assertArrayEquals(new float[] {10}, shared.responseValues(positions(shared), 1));
    double[] d = new double[8 * 3];
    d[0] = 1;
    d[1] = 2;
    d[2] = 99; // past row 0's end
    d[3] = 3;
    d[4] = 98; // past row 1's end
    float[] back = shared.tokenColumns(d, 3).data(); // (8, 2)
    assertArrayEquals(new float[] {1, 2, 3, 0}, java.util.Arrays.copyOf(back, 4));
  }
}
