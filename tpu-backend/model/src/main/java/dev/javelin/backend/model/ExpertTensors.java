package dev.javelin.backend.model;

import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stacked expert weights of a {@link MoeFeedForward} and the pieces checkpoints store them in:
 * transformers saves one {@code gate_proj}/{@code up_proj}/{@code down_proj} matrix per expert
 * ({@code mlp.experts.{j}.gate_proj.weight}), llama.cpp stacks gate and up apart ({@code
 * ffn_gate_exps}, {@code ffn_up_exps}); the model holds {@code gate_up_proj} (E, 2F, D), each
 * expert's gate rows then its up rows, and {@code down_proj} (E, D, F), as transformers ≥ 5 does in
 * memory.
 */
final class ExpertTensors {
  private ExpertTensors() {}

  private static final Pattern HF =
      Pattern.compile("model\\.layers\\.(\\d+)\\.mlp\\.experts\\.(gate_up_proj|down_proj)");
  private static final Pattern GGUF = Pattern.compile("blk\\.(\\d+)\\.ffn_gate_up_exps\\.weight");

  /** {@code name} put together from its stored pieces, or null when it is not a stacked tensor. */
  static Tensor.F32 assemble(String name, Function<String, Tensor.F32> stored) {
    Matcher gguf = GGUF.matcher(name);
    if (gguf.matches()) {
      String blk = "blk." + gguf.group(1) + ".";
      Tensor.F32 gate = stored.apply(blk + "ffn_gate_exps.weight");
      Tensor.F32 up = stored.apply(blk + "ffn_up_exps.weight");
      return gate == null || up == null ? null : interleave(gate, up);
    }
    Matcher hf = HF.matcher(name);
    if (!hf.matches()) {
      return null;
    }
    String prefix = "model.layers." + hf.group(1) + ".mlp.experts.";
    boolean gateUp = hf.group(2).equals("gate_up_proj");
    List<Tensor.F32> rows = new ArrayList<>();
    for (int j = 0; ; j++) {
      Tensor.F32 first =
          stored.apply(prefix + j + (gateUp ? ".gate_proj.weight" : ".down_proj.weight"));
      if (first == null) {
        break;
      }
      Tensor.F32 up = gateUp ? stored.apply(prefix + j + ".up_proj.weight") : null;
      if (gateUp && up == null) {
        return null;
      }
      rows.add(gateUp ? concatRows(first, up) : first);
    }
    return rows.isEmpty() ? null : stack(rows);
  }

  /** The weights with every stacked tensor split into transformers' per-expert matrices. */
  static Map<String, Tensor.F32> perExpert(Map<String, Tensor.F32> weights) {
    Map<String, Tensor.F32> out = new LinkedHashMap<>();
    weights.forEach(
        (name, t) -> {
          Matcher m = HF.matcher(name);
          if (!m.matches()) {
            out.put(name, t);
            return;
          }
          String prefix = "model.layers." + m.group(1) + ".mlp.experts.";
          boolean gateUp = m.group(2).equals("gate_up_proj");
          int experts = t.shape().dim(0);
          for (int j = 0; j < experts; j++) {
            Tensor.F32 e = slice(t, j);
            if (gateUp) {
              int f = e.shape().dim(0) / 2;
              out.put(prefix + j + ".gate_proj.weight", rows(e, 0, f));
              out.put(prefix + j + ".up_proj.weight", rows(e, f, 2 * f));
            } else {
              out.put(prefix + j + ".down_proj.weight", e);
            }
          }
        });
    return out;
  }

  /** (E, F, D) gate and up to (E, 2F, D): per expert its gate rows then its up rows. */
  private static Tensor.F32 interleave(Tensor.F32 gate, Tensor.F32 up) {
    List<Tensor.F32> rows = new ArrayList<>();
    for (int j = 0; j < gate.shape().dim(0); j++) {
      rows.add(concatRows(slice(gate, j), slice(up, j)));
    }
    return stack(rows);
  }

  private static Tensor.F32 concatRows(Tensor.F32 a, Tensor.F32 b) {
    if (a.shape().rank() != 2 || !a.shape().equals(b.shape())) {
      throw new IllegalArgumentException(
          "expert gate " + a.shape() + " and up " + b.shape() + " differ");
    }
    float[] out = new float[a.data().length * 2];
    System.arraycopy(a.data(), 0, out, 0, a.data().length);
    System.arraycopy(b.data(), 0, out, a.data().length, b.data().length);
    return new Tensor.F32(Shape.of(2 * a.shape().dim(0), a.shape().dim(1)), out);
  }

  private static Tensor.F32 stack(List<Tensor.F32> parts) {
    Shape one = parts.get(0).shape();
    int n = one.intSize();
    float[] out = new float[n * parts.size()];
    for (int j = 0; j < parts.size(); j++) {
      if (!parts.get(j).shape().equals(one)) {
        throw new IllegalArgumentException(
            "expert " + j + " has shape " + parts.get(j).shape() + ", expert 0 " + one);
      }
      System.arraycopy(parts.get(j).data(), 0, out, j * n, n);
    }
    int[] dims = new int[one.rank() + 1];
    dims[0] = parts.size();
    System.arraycopy(one.dims(), 0, dims, 1, one.rank());
    return new Tensor.F32(Shape.of(dims), out);
  }

  /** Expert j of a stacked (E, ...) tensor. */
  private static Tensor.F32 slice(Tensor.F32 t, int j) {
    int[] dims = t.shape().dims();
    Shape one = Shape.of(java.util.Arrays.copyOfRange(dims, 1, dims.length));
    int n = one.intSize();
    float[] out = new float[n];
    System.arraycopy(t.data(), j * n, out, 0, n);
    return new Tensor.F32(one, out);
  }

  /** Rows [from, to) of a matrix. */
  private static Tensor.F32 rows(Tensor.F32 m, int from, int to) {
    int cols = m.shape().dim(1);
    float[] out = new float[(to - from) * cols];
    System.arraycopy(m.data(), from * cols, out, 0, out.length);
    return new Tensor.F32(Shape.of(to - from, cols), out);
  }
}
