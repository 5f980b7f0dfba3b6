package dev.javelin.sampler.weights;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.model.LoraAdapters;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.runtime.PolicyModel;
import dev.javelin.weightsync.SnapshotContent;
import dev.javelin.weightsync.SnapshotReceiver;
import dev.javelin.weightsync.SnapshotRejectedException;
import dev.javelin.weightsync.TensorEntry;
import dev.javelin.weightsync.WeightSnapshot;
import dev.javelin.weightsync.WireType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads weight snapshots into a sampler's model through a {@link SnapshotReceiver}: a snapshot must
 * be newer than the loaded version, carry exactly the model's tensors in {@link WeightSpec#layout}
 * order (then, under LoRA, the adapters in {@link LoraConfig#adapters} order), and match its
 * checksum, or nothing changes. The wire type (f32/bf16) is pinned by the first snapshot.
 *
 * <p>A snapshot of {@link SnapshotContent#WEIGHTS} is whole, so a sampler that missed versions
 * catches up by loading the newest one. One that carries LoRA adapters (A and scale·B, {@link
 * LoraAdapters#scaledForSync}) is merged here into the frozen base, which this loader keeps on the
 * host from the last snapshot that brought it: {@code W + B A}, the trainer's own merge, so the
 * model runs plain programs on the same weights a merged sync would have sent.
 */
public final class SnapshotLoader {
  private final ModelConfig config;
  private long initialVersion;
  private SnapshotReceiver receiver;
  private WireType type;
  private Map<String, Tensor.F32> base; // the frozen base of a LoRA run; null when none came
  private LoraConfig lora = LoraConfig.NONE; // the adapters' layout, scale 1

  /**
   * @param initialVersion the version of the weights the model starts with (-1 for none)
   */
  public SnapshotLoader(ModelConfig config, long initialVersion) {
    this.config = config;
    this.initialVersion = initialVersion;
  }

  /** Accepts any version next ({@link SnapshotReceiver#rewind}); {@link #version} is then -1. */
  public void rewind() {
    initialVersion = -1;
    if (receiver != null) {
      receiver.rewind();
    }
  }

  /** The version currently loaded. */
  public long version() {
    return receiver == null ? initialVersion : receiver.loadedVersion();
  }

  /**
   * Checks {@code s} and copies its tensors into {@code model}.
   *
   * @throws SnapshotRejectedException when it is stale, has another layout, fails its checksum, or
   *     carries adapters only while no base was loaded; the model is then unchanged
   */
  public void load(WeightSnapshot s, PolicyModel model) {
    SnapshotContent content = contentOf(s);
    if (content == SnapshotContent.ADAPTERS && base == null) {
      throw new SnapshotRejectedException(
          SnapshotRejectedException.Reason.NO_BASE,
          "snapshot v"
              + s.version()
              + " carries LoRA adapters only and this sampler holds no base weights: it needs a"
              + " snapshot with the base first (the trainer sends one with its first sync and to"
              + " every restarted sampler)");
    }
    if (receiver == null) {
      type = s.entries().isEmpty() ? WireType.F32 : s.entries().get(0).type();
      receiver = new SnapshotReceiver(expectedLayout(config, type), initialVersion);
    }
    LoraConfig layout =
        switch (content) {
          case WEIGHTS -> LoraConfig.NONE;
          case BASE_AND_ADAPTERS -> LoraConfig.ofScaled(config, shapes(s));
          case ADAPTERS -> lora; // adapters alone must match the ones the base came with
        };
    receiver.accept(s, layoutOf(content, layout));
    if (content.hasBase()) {
      Map<String, Tensor.F32> weights = new LinkedHashMap<>();
      for (WeightSpec spec : WeightSpec.layout(config)) {
        weights.put(spec.name(), new Tensor.F32(spec.shape(), s.floats(spec.name())));
      }
      base = content == SnapshotContent.WEIGHTS ? null : weights;
      lora = layout;
      if (base == null) {
        model.loadWeights(weights);
        return;
      }
    }
    Map<String, Tensor.F32> adapters = new LinkedHashMap<>();
    for (LoraConfig.Adapter a : lora.adapters(config)) {
      adapters.put(a.a(), new Tensor.F32(Shape.of(a.rank(), a.in()), s.floats(a.a())));
      adapters.put(a.b(), new Tensor.F32(Shape.of(a.out(), a.rank()), s.floats(a.b())));
    }
    model.loadWeights(LoraAdapters.merge(lora, config, base, adapters));
  }

  /** What {@code s} carries, from its names: adapters are LoRA A and B tensors. */
  public static SnapshotContent contentOf(WeightSnapshot s) {
    boolean adapters = false;
    boolean weights = false;
    for (TensorEntry e : s.entries()) {
      if (LoraConfig.isAdapterTensor(e.name())) {
        adapters = true;
      } else {
        weights = true;
      }
    }
    if (!adapters) {
      return SnapshotContent.WEIGHTS;
    }
    return weights ? SnapshotContent.BASE_AND_ADAPTERS : SnapshotContent.ADAPTERS;
  }

  private static Map<String, int[]> shapes(WeightSnapshot s) {
    Map<String, int[]> out = new LinkedHashMap<>();
    s.entries().forEach(e -> out.put(e.name(), e.shape()));
    return out;
  }

  /** The entries a snapshot of {@code content} must hold, adapters laid out by {@code adapters}. */
  private List<TensorEntry> layoutOf(SnapshotContent content, LoraConfig adapters) {
    List<TensorEntry> out = content.hasBase() ? expectedLayout(config, type) : new ArrayList<>();
    for (LoraConfig.Adapter a : adapters.adapters(config)) {
      out.add(new TensorEntry(a.a(), type, new int[] {a.rank(), a.in()}, 0));
      out.add(new TensorEntry(a.b(), type, new int[] {a.out(), a.rank()}, 0));
    }
    return out;
  }

  /** The model's tensors as snapshot entries of {@code type} (offsets are not compared). */
  public static List<TensorEntry> expectedLayout(ModelConfig config, WireType type) {
    List<TensorEntry> out = new ArrayList<>();
    for (WeightSpec spec : WeightSpec.layout(config)) {
      out.add(new TensorEntry(spec.name(), type, spec.shape().dims(), 0));
    }
    return out;
  }
}
