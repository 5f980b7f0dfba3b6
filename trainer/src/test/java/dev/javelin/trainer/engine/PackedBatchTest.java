package dev.javelin.trainer.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

class PackedBatchTest {
  // Row 0: prompt [1 2 3], response [4 5]; row 1: prompt [6], response [7 8 9].
  private final PackedBatch packed =
      PackedBatch.of(
          List.of(new int[] {1, 2, 3}, new int[] {6}),
          List.of(new int[] {4, 5}, new int[] {7, 8, 9}));

  /** A (B, T-1) model output whose entry is 10·row + column, so positions are visible. */
  private Tensor.F32 positions() {
    int cols = packed.tokens().length() - 1;
    float[] v = new float[2 * cols];
    for (int i = 0; i < v.length; i++) {
      v[i] = 10 * (i / cols) + i % cols;
    }
    return new Tensor.F32(Shape.of(2, cols), v);
  }

  @Test
  void packsPromptThenResponseRightPadded() {
    assertEquals(5, packed.tokens().length());
    assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}, packed.tokens().ids().data());
    assertArrayEquals(new float[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 0}, packed.tokens().mask().data());
    assertEquals(3, packed.maxResponse());
  }

  @Test
  void responseTokenKOfRowIIsModelColumnPromptLengthPlusKMinusOne() {
    // Row 0's response starts at position 3 (logp column 2); row 1's at position 1 (column 0).
    assertArrayEquals(new float[] {2, 3}, packed.responseValues(positions(), 0));
    assertArrayEquals(new float[] {10, 11, 12}, packed.responseValues(positions(), 1));
    assertArrayEquals(
        new double[] {2, 3, 0, 0, 10, 11, 12, 0}, packed.responseColumns(positions(), 4));
  }

  @Test
  void cotangentsScatterBackOnlyOntoResponseTokens() {
    double[] d = {1, 2, 99, 3, 4, 5}; // (B=2, R=3); 99 sits past row 0's end and must vanish
    Tensor.F32 back = packed.tokenColumns(d, 3);
    assertArrayEquals(new float[] {0, 0, 1, 2, 3, 4, 5, 0}, back.data());
    assertArrayEquals(new float[8], packed.tokenColumns(null, 3).data());
    assertThrows(IllegalArgumentException.class, () -> packed.tokenColumns(d, 2));
  }
}
