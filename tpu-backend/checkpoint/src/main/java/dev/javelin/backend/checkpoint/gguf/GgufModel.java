package dev.javelin.backend.checkpoint.gguf;

import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.model.Architecture;
import dev.javelin.backend.model.Architectures;
import dev.javelin.backend.model.ConfigFields;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A llama.cpp GGUF checkpoint as a {@link ModelCheckpoint}: the config from the {@code <arch>.*}
 * metadata, tensors renamed to their Hugging Face names (as the {@link Architecture} maps them) and
 * dequantised one at a time. llama.cpp's converter permutes the rows of Llama q/k projections
 * (interleaved rotary pairs); that is undone here so the weights match the Hugging Face layout.
 */
public final class GgufModel {
  private GgufModel() {}

  /** The family of an open file, from its {@code general.architecture}. */
  public static Architecture architecture(GgufFile f) {
    Object arch = f.metadata().get("general.architecture");
    return (arch instanceof String a ? Architectures.byGguf(a) : Optional.<Architecture>empty())
        .orElseThrow(
            () ->
                new GgufException(
                    f.path(),
                    "general.architecture '"
                        + arch
                        + "' is not supported "
                        + Architectures.ggufArchitectures()));
  }

  /** The model shape of an open file. */
  public static ModelConfig config(GgufFile f) {
    Architecture family = architecture(f).ggufConfigured(new Fields(f), f::contains);
    String arch = family.ggufArchitecture();
    Map<String, Object> m = f.metadata();
    int hidden = integer(f, arch + ".embedding_length");
    int heads = integer(f, arch + ".attention.head_count");
    int kvHeads =
        m.containsKey(arch + ".attention.head_count_kv")
            ? integer(f, arch + ".attention.head_count_kv")
            : heads;
    int headDim =
        m.containsKey(arch + ".attention.key_length")
            ? integer(f, arch + ".attention.key_length")
            : hidden / heads;
    try {
      return new ModelConfig(
          vocabSize(f, arch),
          hidden,
          integer(f, arch + ".feed_forward_length"),
          integer(f, arch + ".block_count"),
          heads,
          kvHeads,
          headDim,
          real(f, arch + ".rope.freq_base", 10_000.0),
          real(f, arch + ".attention.layer_norm_rms_epsilon", 1e-6),
          !f.contains("output.weight"),
          f.contains("blk.0.attn_q.bias"),
          integer(f, arch + ".context_length"),
          family);
    } catch (IllegalArgumentException e) {
      throw new GgufException(f.path(), "inconsistent model metadata: " + e.getMessage(), e);
    }
  }

  /** Loads config and weights; peak memory is the f32 weights plus one tensor's mapping. */
  public static ModelCheckpoint load(Path file) {
    try (GgufFile f = GgufFile.open(file)) {
      ModelConfig c = config(f);
      boolean permuted = c.architecture().ggufPermutesRotary();
      Map<String, Tensor.F32> w = new LinkedHashMap<>();
      for (WeightSpec s : WeightSpec.layout(c)) {
        String name = GgufNames.ggufName(c, s.name());
        Tensor.F32 t =
            f.contains(name)
                ? f.readF32(name)
                : c.architecture().assemble(name, n -> f.contains(n) ? f.readF32(n) : null);
        if (t == null) {
          throw new GgufException(file, "lacks tensor '" + name + "' (" + s.name() + ")");
        }
        if (!t.shape().equals(s.shape())) {
          throw new GgufException(
              file, "tensor '" + name + "' has shape " + t.shape() + ", config needs " + s.shape());
        }
        if (permuted && s.name().contains("self_attn.q_proj")) {
          t = GgufNames.unpermuteRotary(t, c.heads());
        } else if (permuted && s.name().contains("self_attn.k_proj")) {
          t = GgufNames.unpermuteRotary(t, c.kvHeads());
        }
        w.put(s.name(), GgufNames.unshiftNorm(c, s.name(), t));
      }
      return new ModelCheckpoint(c, w);
    }
  }

  /** A file's metadata as the fields a family reads for itself. */
  private record Fields(GgufFile f) implements ConfigFields {
    @Override
    public int integer(String key, int fallback) {
      return f.metadata().containsKey(key) ? GgufModel.integer(f, key) : fallback;
    }

    @Override
    public double real(String key, double fallback) {
      return GgufModel.real(f, key, fallback);
    }

    @Override
    public boolean flag(String key, boolean fallback) {
      Object v = f.metadata().get(key);
      if (v != null && !(v instanceof Boolean)) {
        throw new GgufException(f.path(), "metadata '" + key + "' must be a bool, got " + v);
      }
      return v == null ? fallback : (Boolean) v;
    }

    @Override
    public List<Integer> integers(String key) {
      return List.of();
    }

    @Override
    public String text(String key, String fallback) {
      return f.metadata().get(key) instanceof String s ? s : fallback;
    }

    @Override
    public List<String> texts(String key) {
      return List.of();
    }

    @Override
    public boolean has(String key) {
      return f.metadata().get(key) != null;
    }

    /** GGUF metadata is flat: its keys carry their prefixes. */
    @Override
    public ConfigFields section(String key) {
      throw new UnsupportedOperationException("GGUF metadata has no sections ('" + key + "')");
    }
  }

  private static int vocabSize(GgufFile f, String arch) {
    if (f.metadata().get("tokenizer.ggml.tokens") instanceof List<?> tokens) {
      return tokens.size();
    }
    if (f.metadata().containsKey(arch + ".vocab_size")) {
      return integer(f, arch + ".vocab_size");
    }
    return f.info("token_embd.weight").shape().dim(0);
  }

  private static int integer(GgufFile f, String key) {
    Object v = f.metadata().get(key);
    if (!(v instanceof Long l) || l <= 0 || l > Integer.MAX_VALUE) {
      throw new GgufException(
          f.path(), "metadata '" + key + "' must be a positive integer, got " + v);
    }
    return l.intValue();
  }

  private static double real(GgufFile f, String key, double fallback) {
    Object v = f.metadata().get(key);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Double d)) {
      throw new GgufException(f.path(), "metadata '" + key + "' must be a float, got " + v);
    }
    return d;
  }
}
