package dev.javelin.backend.runtime;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.DistinctPrompts;
import dev.javelin.backend.batch.TokenBatch;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.program.Bindings;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.program.SlotPrograms;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A KV cache of B independent rows ("slots") of S positions each, for continuous batching: {@link
 * #prefill} fills every row at once from a batch of prompts, {@link #prefillRows} refills some rows
 * in one batched prefill, and {@link #step} feeds one token per row at that row's own position, so
 * rows can be at different lengths and a row can restart at position 0 with a new request (feeding
 * its prompt token by token) while the others decode. See {@link SlotPrograms}. Thread-confined;
 * close to free the cache.
 *
 * <p>Shared prompts: GRPO samples n responses per prompt (n = 8 in arith-grpo), so a sampler's
 * batch holds each prompt n times. Both prefills run the prompt program once per distinct prompt
 * (equal contents) and gather its cache into every row that holds it: prefill work (∝ B·T, and B·T²
 * in attention) drops from B rows to U' (the U distinct prompts padded to a power of two, about B /
 * n) for one row copy of the cache; 128 rows of 16 prompts x 8 on the arith model: 28 -> 5 ms on
 * the cpu device. Results equal prefilling every row, bitwise where a row's arithmetic does not
 * depend on the batch size (the reference device); OpenBLAS rounds a row's products by its place in
 * the batch, so on the cpu device they agree to float rounding, as the per-row path at two batch
 * sizes does, and the n copies of a prompt now start from bitwise-equal logits.
 *
 * <p>Precision: a decoder opened with {@link DType#BF16} runs bf16 prefill and decode programs on
 * the model's bf16 weight copy (cast once per weight load) and keeps its KV cache in bf16, half the
 * bytes of f32 on devices that store bf16 in 16 bits (the cpu device holds bf16 values in float
 * arrays); norms, attention softmax and the returned logits are f32.
 *
 * <p>On the model's mesh (tensor parallelism for samplers) the KV caches are split by key/value
 * heads over {@code tp} and by rows over the batch axis ({@link ShardPlan}); prefill, decode and
 * the row splice and gather programs keep that layout from one call to the next.
 */
public final class SlotDecoder implements AutoCloseable {
  /**
   * Cache lengths are rounded up to a multiple of this: finer than the model's length bucket
   * because decode cost grows with S, coarse enough to bound the programs compiled.
   */
  static final int CAPACITY_GRANULE = 8;

  private final PolicyModel model;
  private final int capacity;
  private final boolean sharePrompts;
  private final DType compute;
  private int rows;
  private List<DeviceBuffer> caches; // null until first needed: a full prefill replaces them anyway
  private boolean closed;

  private SlotDecoder(
      PolicyModel model, int rows, int capacity, boolean sharePrompts, DType compute) {
    ModelPrograms.checkDecodeType(compute);
    if (rows < 1) {
      throw new IllegalArgumentException("rows must be >= 1, got " + rows);
    }
    this.model = model;
    int max = model.config().maxPositions();
    if (capacity < 1 || capacity > max) {
      throw new IllegalArgumentException(
          "capacity must be in [1, maxPositions=" + max + "], got " + capacity);
    }
    this.capacity =
        Math.min(max, (capacity + CAPACITY_GRANULE - 1) / CAPACITY_GRANULE * CAPACITY_GRANULE);
    this.sharePrompts = sharePrompts;
    this.compute = compute;
    useRows(rows);
  }

  /**
   * Opens a cache of {@code rows} slots holding at least {@code capacity} positions each (rounded
   * up to a multiple of {@value #CAPACITY_GRANULE}, at most {@code maxPositions}).
   */
  public static SlotDecoder open(PolicyModel model, int rows, int capacity) {
    return open(model, rows, capacity, DType.F32);
  }

  /** As {@link #open(PolicyModel, int, int)}, computing in {@code compute} (f32 or bf16). */
  public static SlotDecoder open(PolicyModel model, int rows, int capacity, DType compute) {
    return new SlotDecoder(model, rows, capacity, true, compute);
  }

  /**
   * As {@link #open}, but every row is prefilled on its own even when prompts repeat: the path
   * before prompt sharing, kept as the reference the sharing is tested against.
   */
  static SlotDecoder openPerRow(PolicyModel model, int rows, int capacity) {
    return new SlotDecoder(model, rows, capacity, false, DType.F32);
  }

  public int rows() {
    return rows;
  }

  /**
   * The device buffers of the KV cache, per layer key then value (read-only; empty before the first
   * prefill or step). A step overwrites them in place where the device donates.
   */
  public List<DeviceBuffer> cacheOnDevice() {
    return caches == null ? List.of() : Collections.unmodifiableList(caches);
  }

  /** What prefill and decode compute in, and the KV cache's element type. */
  public DType computeDType() {
    return compute;
  }

  /** Positions each row holds. */
  public int capacity() {
    return capacity;
  }

  /**
   * Replaces every row with the given prompts (one per row, non-empty) and returns the logits (B,
   * V) that follow each prompt's last token. Row r then continues at position {@code
   * prompts.get(r).length}. Repeated prompts are prefilled once, then gathered into their rows,
   * unless padding the distinct ones to a power of two leaves no fewer rows than B.
   */
  public Tensor.F32 prefill(List<int[]> prompts) {
    requireOpen();
    if (prompts.size() != rows) {
      throw new IllegalArgumentException("need " + rows + " prompts, got " + prompts.size());
    }
    DistinctPrompts d = distinct(prompts);
    int u = d.paddedSize();
    if (u >= rows) { // nothing to save: prefill every row as given
      Prefilled p = runPrefill(prompts);
      replaceCaches(p.caches());
      return p.logits();
    }
    Prefilled p = runPrefill(d.paddedPrompts());
    List<DeviceBuffer> gathered = gatherRows(cacheMap(p.caches()), u, d.rowOf());
    p.caches().forEach(DeviceBuffer::close);
    replaceCaches(gathered);
    return d.spread(p.logits());
  }

  /**
   * Prefills {@code prompts.get(j)} into row {@code targets[j]} while every other row keeps its
   * cache, and returns the logits (n, V) after each new prompt. The distinct new prompts are
   * prefilled as a batch padded to a power of two, then spliced in ({@link
   * SlotPrograms#mergeRows}), each into every target row that asked for it.
   */
  public Tensor.F32 prefillRows(int[] targets, List<int[]> prompts) {
    int n = targets.length;
    if (n == 0 || prompts.size() != n) {
      throw new IllegalArgumentException("need one prompt per target row, got " + prompts.size());
    }
    DistinctPrompts d = distinct(prompts);
    int[] src = d.mergeSources(targets, rows);
    int bn = d.paddedSize();
    Prefilled p = runPrefill(d.paddedPrompts());
    ModelConfig c = model.config();
    int b = rows;
    Map<String, DeviceBuffer> in = cacheInputs();
    for (int i = 0; i < c.layers(); i++) {
      in.put(SlotPrograms.freshKey(i), p.caches().get(2 * i));
      in.put(SlotPrograms.freshValue(i), p.caches().get(2 * i + 1));
    }
    List<DeviceBuffer> out =
        runRowsProgram(
            "slot_merge_b" + b + "_n" + bn,
            () -> SlotPrograms.mergeRows(c, b, bn, capacity, compute),
            in,
            src);
    p.caches().forEach(DeviceBuffer::close);
    replaceCaches(out);
    return d.spread(p.logits());
  }

  /** Groups equal prompts; every row on its own without sharing. */
  private DistinctPrompts distinct(List<int[]> prompts) {
    return sharePrompts ? DistinctPrompts.of(prompts) : DistinctPrompts.perRow(prompts);
  }

  /** Logits (B, V) after each prompt and the fresh caches of a right-padded prefill. */
  private record Prefilled(Tensor.F32 logits, List<DeviceBuffer> caches) {}

  private Prefilled runPrefill(List<int[]> prompts) {
    // exact prompt length, not the model's bucket: prefill cost grows with T and one GRPO batch
    // has one longest prompt, so this compiles a program per distinct longest length only
    TokenBatch padded = TokenBatch.rightPadded(prompts, 2);
    int t = padded.length();
    if (t > capacity) {
      throw new IllegalArgumentException(
          "prompt of " + t + " tokens does not fit " + capacity + " cache positions");
    }
    ModelConfig c = model.config();
    int b = prompts.size();
    Executable prefill =
        model.executable(
            ProgramSpec.of(
                    "prefill_b" + b + "_t" + t + "_s" + capacity + programSuffix(),
                    () ->
                        ModelPrograms.prefill(
                            c,
                            b,
                            t,
                            capacity,
                            c.maxPositions(),
                            compute,
                            model.lora().withoutDropout()))
                .outputs(ShardPlan.after(2, ShardPlan.cacheNames(c))));
    Map<String, DeviceBuffer> in = new HashMap<>();
    in.put(ModelPrograms.INPUT_IDS, model.upload(ModelPrograms.INPUT_IDS, padded.ids()));
    in.put(ModelPrograms.POSITIONS, model.upload(ModelPrograms.POSITIONS, padded.positions()));
    in.put(ModelPrograms.ATTENTION_MASK, model.upload(ModelPrograms.ATTENTION_MASK, padded.mask()));
    List<DeviceBuffer> out;
    try {
      out = model.runKeeping(prefill, in, compute);
    } finally {
      in.values().forEach(DeviceBuffer::close);
    }
    Tensor.F32 logits = (Tensor.F32) out.get(0).toHost();
    out.get(0).close();
    out.get(1).close(); // key mask: slot rows derive theirs from positions
    return new Prefilled(logits, new ArrayList<>(out.subList(2, out.size())));
  }

  private Map<String, DeviceBuffer> cacheInputs() {
    requireOpen();
    if (caches == null) {
      caches = zeroCaches();
    }
    return cacheMap(caches);
  }

  /** Cache buffers (per layer key then value) bound to the cache input names. */
  private Map<String, DeviceBuffer> cacheMap(List<DeviceBuffer> kv) {
    Map<String, DeviceBuffer> in = new HashMap<>();
    for (int i = 0; i < model.config().layers(); i++) {
      in.put(ModelPrograms.cacheKey(i), kv.get(2 * i));
      in.put(ModelPrograms.cacheValue(i), kv.get(2 * i + 1));
    }
    return in;
  }

  /**
   * Feeds {@code tokens[r]} at position {@code positions[r]} for every row with {@code active[r]},
   * and returns the logits (B, V) of each row's next token (rows that are not active return garbage
   * and keep their cache).
   */
  public Tensor.F32 step(int[] tokens, int[] positions, boolean[] active) {
    if (tokens.length != rows || positions.length != rows || active.length != rows) {
      throw new IllegalArgumentException("need " + rows + " tokens, positions and flags");
    }
    float[] mask = new float[rows];
    int[] pos = new int[rows];
    for (int r = 0; r < rows; r++) {
      if (active[r] && (positions[r] < 0 || positions[r] >= capacity)) {
        throw new IllegalArgumentException(
            "row " + r + " position " + positions[r] + " outside [0, " + capacity + ")");
      }
      mask[r] = active[r] ? 1f : 0f;
      pos[r] = active[r] ? positions[r] : 0;
    }
    Map<String, DeviceBuffer> in = new HashMap<>();
    in.put(
        ModelPrograms.INPUT_IDS,
        model.upload(ModelPrograms.INPUT_IDS, new Tensor.I32(Shape.of(rows, 1), tokens.clone())));
    in.put(
        ModelPrograms.POSITIONS,
        model.upload(ModelPrograms.POSITIONS, new Tensor.I32(Shape.of(rows, 1), pos)));
    in.put(
        ModelPrograms.ATTENTION_MASK,
        model.upload(ModelPrograms.ATTENTION_MASK, new Tensor.F32(Shape.of(rows, 1), mask)));
    Map<String, DeviceBuffer> all = cacheInputs();
    all.putAll(in);
    List<DeviceBuffer> out = model.runKeeping(decodeProgram(), all, compute);
    in.values().forEach(DeviceBuffer::close);
    Tensor.F32 logits = (Tensor.F32) out.get(0).toHost();
    out.get(0).close();
    replaceCaches(new ArrayList<>(out.subList(1, out.size())));
    return logits;
  }

  /**
   * Shrinks (or reorders) the batch: new row i continues old row {@code keep[i]}, cache included.
   * Used when few requests remain, so their steps stop paying for finished rows.
   */
  public void compact(int[] keep) {
    if (keep.length < 1) {
      throw new IllegalArgumentException("keep at least one row");
    }
    for (int r : keep) {
      if (r < 0 || r >= rows) {
        throw new IllegalArgumentException("row " + r + " outside [0, " + rows + ")");
      }
    }
    List<DeviceBuffer> out = gatherRows(cacheInputs(), rows, keep);
    replaceCaches(out);
    useRows(keep.length);
  }

  /**
   * New caches whose row i is row {@code keep[i]} of the {@code from}-row caches bound in {@code
   * in} (which the caller still owns).
   */
  private List<DeviceBuffer> gatherRows(Map<String, DeviceBuffer> in, int from, int[] keep) {
    ModelConfig c = model.config();
    int to = keep.length;
    return runRowsProgram(
        "slot_gather_b" + from + "_to" + to,
        () -> SlotPrograms.gatherRows(c, from, to, capacity, compute),
        in,
        keep.clone());
  }

  /**
   * Runs the cache program {@code name} (built by {@code build} on first use) over {@code in} and
   * the row indices {@code rowIds}, and returns the new caches it writes.
   */
  private List<DeviceBuffer> runRowsProgram(
      String name, Supplier<Program> build, Map<String, DeviceBuffer> in, int[] rowIds) {
    Executable e =
        model.executable(
            ProgramSpec.of(name + "_s" + capacity + ModelPrograms.suffix(compute), build)
                .outputs(ShardPlan.cacheNames(model.config())));
    DeviceBuffer ids =
        model.upload(SlotPrograms.ROWS, new Tensor.I32(Shape.of(rowIds.length), rowIds));
    in.put(SlotPrograms.ROWS, ids);
    List<DeviceBuffer> out = e.run(Bindings.bind(e.program(), in));
    ids.close();
    return new ArrayList<>(out);
  }

  private void useRows(int b) {
    this.rows = b;
    decodeProgram(); // compile now, not on the first step
  }

  /** The decode program for the current rows, fetched per step: the model's cache is bounded. */
  private Executable decodeProgram() {
    ModelConfig c = model.config();
    int s = capacity;
    int b = rows;
    return model.executable(
        ProgramSpec.of(
                "slot_decode_b" + b + "_s" + s + programSuffix(),
                () ->
                    SlotPrograms.decode(
                        c, b, s, c.maxPositions(), compute, model.lora().withoutDropout()))
            .donating(p -> SlotPrograms.decodeInPlace(p, c.layers()))
            .outputs(ShardPlan.after(1, ShardPlan.cacheNames(c))));
  }

  /** Keeps programs through adapters apart from plain ones in the model's cache. */
  private String programSuffix() {
    return ModelPrograms.loraSuffix(model.lora()) + ModelPrograms.suffix(compute);
  }

  private List<DeviceBuffer> zeroCaches() {
    ModelConfig c = model.config();
    Shape shape = Shape.of(rows, c.kvHeads(), capacity, c.headDim());
    List<DeviceBuffer> zeros = new ArrayList<>();
    for (String name : ShardPlan.cacheNames(c)) {
      zeros.add(model.upload(name, Tensor.zeros(compute, shape)));
    }
    return zeros;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("slot decoder is closed");
    }
  }

  private void replaceCaches(List<DeviceBuffer> next) {
    if (caches != null) {
      caches.forEach(DeviceBuffer::close);
    }
    caches = next;
  }

  @Override
  public void close() {
    closed = true;
    if (caches != null) {
      caches.forEach(DeviceBuffer::close);
      caches = null;
    }
  }
}
