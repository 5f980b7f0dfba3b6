package dev.javelin.sampler.engine;

import dev.javelin.backend.DType;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.backend.runtime.SlotDecoder;
import java.util.List;

/** {@link TokenModel} over the backend's {@link SlotDecoder}: the KV cache stays on the device. */
public final class SlotTokenModel implements TokenModel, AutoCloseable {
  private final SlotDecoder decoder;
  private final int vocab;

  /** Opens a cache of {@code rows} slots with at least {@code capacity} positions each. */
  public SlotTokenModel(PolicyModel model, int rows, int capacity) {
    this(model, rows, capacity, DType.F32);
  }

  /** As above, decoding in {@code dtype} (f32, or bf16 with a bf16 cache). */
  public SlotTokenModel(PolicyModel model, int rows, int capacity, DType dtype) {
    this.decoder = SlotDecoder.open(model, rows, capacity, dtype);
    this.vocab = model.config().vocabSize();
  }

  @Override
  public int rows() {
    return decoder.rows();
  }

  @Override
  public int capacity() {
    return decoder.capacity();
  }

  @Override
  public int vocab() {
    return vocab;
  }

  @Override
  public float[] prefill(List<int[]> prompts) {
    return decoder.prefill(prompts).data();
  }

  @Override
  public float[] prefillRows(int[] rows, List<int[]> prompts) {
    return decoder.prefillRows(rows, prompts).data();
  }

  @Override
  public float[] step(int[] tokens, int[] positions, boolean[] active) {
    return decoder.step(tokens, positions, active).data();
  }

  @Override
  public void compact(int[] keep) {
    decoder.compact(keep);
  }

  @Override
  public void close() {
    decoder.close();
  }
}
