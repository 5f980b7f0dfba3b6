package dev.javelin.backend.runtime;

import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.program.ModelPrograms;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Batched decoding with a KV cache kept on the device. Prompts are right-padded to a bucket of T
 * tokens and prefilled; decode step j writes every row's token into cache slot T + j (rows whose
 * prompt is shorter keep masked holes before it) at rotary position {@code len_b + j}, so one
 * program serves ragged batches. Thread-confined; close to free the cache.
 */
public final class DecodeSession implements AutoCloseable {
  private final PolicyModel model;
  private final int batch;
  private final int promptSlots;
  private final int capacity;
  private final int maxNewTokens;
  private final int[] lengths;
  private final Executable decode;
  private DeviceBuffer keyMask;
  private List<DeviceBuffer> caches;
  private Tensor.F32 logits;
  private int steps;

  DecodeSession(PolicyModel model, List<int[]> prompts, int maxNewTokens) {
    if (prompts.isEmpty() || maxNewTokens < 1) {
      throw new IllegalArgumentException("need prompts and maxNewTokens >= 1");
    }
    this.model = model;
    this.batch = prompts.size();
    this.maxNewTokens = maxNewTokens;
    this.lengths = new int[batch];
    for (int r = 0; r < batch; r++) {
      lengths[r] = prompts.get(r).length;
      if (lengths[r] == 0) {
        throw new IllegalArgumentException("prompt " + r + " is empty");
      }
    }
    TokenBatch padded = TokenBatch.rightPadded(prompts, 1);
    this.promptSlots = model.bucket(padded.length());
    this.capacity = model.bucket(promptSlots + maxNewTokens);
    ModelConfig c = model.config();
    int p = c.maxPositions();
    Executable prefill =
        model.executable(
            "prefill_b" + batch + "_t" + promptSlots + "_s" + capacity,
            () -> ModelPrograms.prefill(c, batch, promptSlots, capacity, p));
    this.decode =
        model.executable(
            "decode_b" + batch + "_s" + capacity,
            () -> ModelPrograms.decode(c, batch, capacity, p),
            program -> ModelPrograms.decodeInPlace(program, c.layers()));
    Map<String, DeviceBuffer> in = new HashMap<>();
    TokenBatch tb = padded.padTo(promptSlots);
    in.put(ModelPrograms.INPUT_IDS, model.device().upload(tb.ids()));
    in.put(ModelPrograms.POSITIONS, model.device().upload(tb.positions()));
    in.put(ModelPrograms.ATTENTION_MASK, model.device().upload(tb.mask()));
    absorb(model.run(prefill, in));
  }

  /** Logits (B, V) for each row's next token. */
  public Tensor.F32 logits() {
    return logits;
  }

  /** Tokens decoded so far per row (all rows advance together). */
  public int steps() {
    return steps;
  }

  /** Feeds one token per row and returns the next logits (B, V). */
  public Tensor.F32 step(int[] tokens) {
    if (tokens.length != batch) {
      throw new IllegalArgumentException("need " + batch + " tokens, got " + tokens.length);
    }
    if (steps >= maxNewTokens) {
      throw new IllegalStateException("session is full after " + maxNewTokens + " new tokens");
    }
    int[] pos = new int[batch];
    for (int r = 0; r < batch; r++) {
      pos[r] = lengths[r] + steps;
    }
    float[] ones = new float[batch];
    Arrays.fill(ones, 1f);
    var dev = model.device();
    Map<String, DeviceBuffer> in = new HashMap<>();
    in.put(ModelPrograms.INPUT_IDS, dev.upload(new Tensor.I32(Shape.of(batch, 1), tokens.clone())));
    in.put(ModelPrograms.POSITIONS, dev.upload(new Tensor.I32(Shape.of(batch, 1), pos)));
    in.put(ModelPrograms.ATTENTION_MASK, dev.upload(new Tensor.F32(Shape.of(batch, 1), ones)));
    in.put(
        ModelPrograms.CACHE_SLOT,
        dev.upload(new Tensor.I32(Shape.scalar(), new int[] {promptSlots + steps})));
    Map<String, DeviceBuffer> state = new HashMap<>();
    state.put(ModelPrograms.KEY_MASK, keyMask);
    for (int i = 0; i < model.config().layers(); i++) {
      state.put(ModelPrograms.cacheKey(i), caches.get(2 * i));
      state.put(ModelPrograms.cacheValue(i), caches.get(2 * i + 1));
    }
    Map<String, DeviceBuffer> all = new HashMap<>(in);
    all.putAll(state);
    List<DeviceBuffer> out = model.runKeeping(decode, all);
    in.values().forEach(DeviceBuffer::close);
    state.values().forEach(DeviceBuffer::close);
    absorb(out);
    steps++;
    return logits;
  }

  /** Greedy decoding until every row has produced {@code eosId} or the session is full. */
  List<int[]> greedy(int eosId) {
    List<List<Integer>> out = new ArrayList<>();
    boolean[] done = new boolean[batch];
    for (int r = 0; r < batch; r++) {
      out.add(new ArrayList<>());
    }
    int v = model.config().vocabSize();
    while (true) {
      int[] next = new int[batch];
      boolean all = true;
      for (int r = 0; r < batch; r++) {
        next[r] = argmax(logits.data(), r * v, v);
        if (!done[r]) {
          out.get(r).add(next[r]);
          done[r] = next[r] == eosId;
        }
        all &= done[r];
      }
      // tokens collected so far: steps + 1
      if (all || steps + 1 >= maxNewTokens) {
        break;
      }
      step(next);
    }
    List<int[]> result = new ArrayList<>();
    for (List<Integer> row : out) {
      result.add(row.stream().mapToInt(Integer::intValue).toArray());
    }
    return result;
  }

  static int argmax(float[] x, int from, int n) {
    int best = 0;
    for (int i = 1; i < n; i++) {
      if (x[from + i] > x[from + best]) {
        best = i;
      }
    }
    return best;
  }

  /** Takes [logits, key mask, caches...] from a prefill or decode run. */
  private void absorb(List<DeviceBuffer> out) {
    logits = (Tensor.F32) out.get(0).toHost();
    out.get(0).close();
    keyMask = out.get(1);
    caches = new ArrayList<>(out.subList(2, out.size()));
  }

  @Override
  public void close() {
    if (keyMask != null) {
      keyMask.close();
      caches.forEach(DeviceBuffer::close);
      keyMask = null;
    }
  }
}
