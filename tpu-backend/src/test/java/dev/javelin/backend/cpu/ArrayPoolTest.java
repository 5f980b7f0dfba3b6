package dev.javelin.backend.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.javelin.backend.DType;
import org.junit.jupiter.api.Test;

class ArrayPoolTest {
  @Test
  void recyclesArraysOfTheSameSize() {
    ArrayPool pool = new ArrayPool(1 << 20);
    float[] a = new float[100];
    pool.give(DType.F32, 100, a);
    assertEquals(400, pool.heldBytes());
    assertSame(a, pool.take(DType.F32, 100));
    assertEquals(0, pool.heldBytes());
    assertNotSame(a, pool.take(DType.F32, 100));
  }

  @Test
  void dropsLeastRecentlyUsedSizesWhenFull() {
    ArrayPool pool = new ArrayPool(1000); // room for two 100-float arrays
    float[] old = new float[100];
    float[] mid = new float[101];
    pool.give(DType.F32, 100, old);
    pool.give(DType.F32, 101, mid);
    float[] fresh = new float[102];
    pool.give(DType.F32, 102, fresh); // evicts the 100-float array, the least recently used
    assertEquals(101 * 4 + 102 * 4, pool.heldBytes());
    assertNotSame(old, pool.take(DType.F32, 100));
    assertSame(mid, pool.take(DType.F32, 101));
    assertSame(fresh, pool.take(DType.F32, 102));
    assertEquals(0, pool.heldBytes());
  }

  @Test
  void neverHoldsMoreThanItsBound() {
    ArrayPool pool = new ArrayPool(4000);
    for (int size = 1; size < 2000; size += 7) {
      pool.give(DType.F32, size, new float[size]);
      assertEquals(true, pool.heldBytes() <= 4000, "held " + pool.heldBytes());
    }
    pool.give(DType.F32, 5000, new float[5000]); // larger than the whole pool: not kept
    assertEquals(true, pool.heldBytes() <= 4000);
  }
}
