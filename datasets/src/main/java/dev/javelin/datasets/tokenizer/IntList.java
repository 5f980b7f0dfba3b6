package dev.javelin.datasets.tokenizer;

import java.util.Arrays;

/** A growable int array, so encoding builds id lists without boxing. */
final class IntList {
  private int[] values = new int[32];
  private int size;

  void add(int value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  void addAll(int[] more) {
    if (size + more.length > values.length) {
      values = Arrays.copyOf(values, Math.max(values.length * 2, size + more.length));
    }
    System.arraycopy(more, 0, values, size, more.length);
    size += more.length;
  }

  int[] toArray() {
    return Arrays.copyOf(values, size);
  }
}
