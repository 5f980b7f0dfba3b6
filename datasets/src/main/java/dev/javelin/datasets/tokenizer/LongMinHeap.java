package dev.javelin.datasets.tokenizer;

import java.util.Arrays;

/** A binary min-heap of primitive longs (no boxing), for the BPE merge queue. */
final class LongMinHeap {
  private long[] heap;
  private int size;

  LongMinHeap(int capacity) {
    heap = new long[Math.max(4, capacity)];
  }

  boolean isEmpty() {
    return size == 0;
  }

  void push(long value) {
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (heap[parent] <= value) {
        break;
      }
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = value;
  }

  long pop() {
    long top = heap[0];
    long last = heap[--size];
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && heap[child + 1] < heap[child]) {
        child++;
      }
      if (last <= heap[child]) {
        break;
      }
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
