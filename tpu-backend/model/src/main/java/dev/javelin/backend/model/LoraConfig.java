package dev.javelin.backend.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Low-rank adapters on chosen linear layers of the decoder: {@code y = W x + (alpha / r) · B (A x)}
 * with A (r, in) and B (out, r), the base W frozen. Rank 0 is full fine-tuning (no adapters).
 *
 * @param rank r
 * @param alpha the scale numerator ({@code lora_alpha})
 * @param targets module names out of {@link #MODULES} that carry an adapter
 * @param dropout PEFT's {@code lora_dropout} p: in train steps only, each adapter's input x becomes
 *     {@code mask ⊙ x} with mask entries 0 (probability p) or 1/(1-p), so {@code y = W x + (alpha /
 *     r) · B (A dropout(x))}; log-probs and decoding never drop ({@link #withoutDropout})
 */
public record LoraConfig(int rank, double alpha, Set<String> targets, double dropout) {

  /** Full fine-tuning: no adapters. */
  public static final LoraConfig NONE = new LoraConfig(0, 0, Set.of());

  /** Adapters without dropout. */
  public LoraConfig(int rank, double alpha, Set<String> targets) {
    this(rank, alpha, targets, 0);
  }

  /** The adaptable linear layers of a block, in layout order, as PEFT names them. */
  public static final List<String> MODULES =
      List.of("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj");

  public LoraConfig {
    if (rank < 0) {
      throw new IllegalArgumentException("LoRA rank must be >= 0, got " + rank);
    }
    targets = Set.copyOf(targets);
    for (String t : targets) {
      if (!MODULES.contains(t)) {
        throw new IllegalArgumentException("LoRA target '" + t + "' is not one of " + MODULES);
      }
    }
    if (rank > 0 && targets.isEmpty()) {
      throw new IllegalArgumentException("LoRA rank " + rank + " needs at least one target module");
    }
    if (!(dropout >= 0 && dropout < 1)) {
      throw new IllegalArgumentException("LoRA dropout must be in [0, 1), got " + dropout);
    }
  }

  /** The same adapters with no dropout: what log-probs, references and decoding run. */
  public LoraConfig withoutDropout() {
    return dropout == 0 ? this : new LoraConfig(rank, alpha, targets);
  }

  /** Whether train steps drop adapter inputs (dropout > 0). */
  public boolean drops() {
    return enabled() && dropout > 0;
  }

  /** Whether any adapter exists (rank > 0). */
  public boolean enabled() {
    return rank > 0;
  }

  /** alpha / r, the factor on the adapter's output. */
  public double scale() {
    return alpha / rank;
  }

  private static final String A_SUFFIX = ".lora_A.weight";
  private static final String B_SUFFIX = ".lora_B.weight";

  /** Whether {@code name} is an adapter's A or B as {@link Adapter} names them. */
  public static boolean isAdapterTensor(String name) {
    return name.endsWith(A_SUFFIX) || name.endsWith(B_SUFFIX);
  }

  /**
   * One adapter: the layer and module it sits on, the base weight it adapts and the shapes of A (r,
   * in) and B (out, r). Tensor names follow PEFT without its {@code base_model.model.} prefix:
   * {@code model.layers.{i}.self_attn.q_proj.lora_A.weight}.
   */
  public record Adapter(int layer, String module, String base, int in, int out, int rank) {
    public String a() {
      return prefix() + A_SUFFIX;
    }

    public String b() {
      return prefix() + B_SUFFIX;
    }

    /** The program input holding this adapter's dropout mask, shaped like its input x. */
    public String dropoutMask() {
      return prefix() + ".lora_dropout.mask";
    }

    private String prefix() {
      return base.substring(0, base.length() - ".weight".length());
    }
  }

  /**
   * The adapters named in {@code shapes} (A and B by name, as {@link Adapter#a()} and {@link
   * Adapter#b()} spell them) on a model of {@code c}, with {@code alpha = r}: a scale of 1, for
   * adapters whose B already carries the scale ({@link LoraAdapters#scaledForSync}). Targets are
   * the modules whose layer-0 A is present and r is that A's first dimension; {@link #NONE} when
   * none is. {@link LoraAdapters#check} then checks that every layer has exactly these.
   */
  public static LoraConfig ofScaled(ModelConfig c, Map<String, int[]> shapes) {
    Set<String> targets = new LinkedHashSet<>();
    int rank = 0;
    for (String m : MODULES) {
      int[] a = shapes.get(adapterOf(c, 0, m, 0).map(Adapter::a).orElse(""));
      if (a != null && a.length == 2 && a[0] > 0) {
        targets.add(m);
        rank = rank == 0 ? a[0] : rank;
      }
    }
    return targets.isEmpty() || c.layers() == 0 ? NONE : new LoraConfig(rank, rank, targets);
  }

  /**
   * Every adapter of {@code c}, layer by layer in block order (the architecture's adaptable linear
   * weights that are targets); empty when disabled.
   */
  public List<Adapter> adapters(ModelConfig c) {
    List<Adapter> out = new ArrayList<>();
    if (!enabled()) {
      return out;
    }
    for (int i = 0; i < c.layers(); i++) {
      for (Architecture.LayerTensor t : c.architecture().layerTensors(c, i)) {
        if (t.adaptable() && targets.contains(t.loraModule())) {
          out.add(adapter(i, t, rank));
        }
      }
    }
    return out;
  }

  /** The adapter of rank {@code r} on {@code module} of block i, if the block has that module. */
  private static Optional<Adapter> adapterOf(ModelConfig c, int i, String module, int r) {
    return c.architecture().layerTensors(c, i).stream()
        .filter(t -> module.equals(t.loraModule()))
        .findFirst()
        .map(t -> adapter(i, t, r));
  }

  private static Adapter adapter(int i, Architecture.LayerTensor t, int r) {
    // nn.Linear weights are (out, in): A (r, in), B (out, r)
    String base = WeightSpec.layer(i, t.suffix());
    return new Adapter(i, t.loraModule(), base, t.shape().dim(1), t.shape().dim(0), r);
  }
}
