package dev.javelin.backend.testing;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.RopeTable;
import dev.javelin.backend.optim.OptimizerPrograms;
import dev.javelin.backend.program.ModelPrograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Plausible inputs for the model programs, chosen by parameter name, for tests and benchmarks. */
public final class ModelInputs {
  private ModelInputs() {}

  /**
   * One tensor per parameter of {@code program}; {@code t} is its token count (1 for decode) and
   * {@code slot} the decode cache slot.
   */
  public static List<Tensor> of(ModelConfig c, Program program, int t, int slot) {
    return of(c, program, t, slot, new Random(program.name().hashCode()));
  }

  /** As {@link #of(ModelConfig, Program, int, int)}, drawing from {@code rng}. */
  public static List<Tensor> of(ModelConfig c, Program program, int t, int slot, Random rng) {
    List<Tensor> inputs = new ArrayList<>();
    RopeTable rope = RopeTable.compute(c, c.maxPositions());
    for (Node param : program.parameters()) {
      String name = ((Op.Parameter) param.op()).name();
      Shape shape = param.shape();
      inputs.add(
          switch (name) {
            case ModelPrograms.INPUT_IDS -> Tensors.randomInts(rng, c.vocabSize(), shape.dims());
            case ModelPrograms.POSITIONS -> positions(shape, t == 1 ? slot : 0);
            case ModelPrograms.ATTENTION_MASK ->
                t == 1 ? rightPadded(shape, 1, 1) : rightPadded(shape, t, t - 2);
            case ModelPrograms.ROPE_COS -> rope.cos();
            case ModelPrograms.ROPE_SIN -> rope.sin();
            case ModelPrograms.TEMPERATURE -> Tensor.scalar(0.8f);
            case OptimizerPrograms.LR -> Tensor.scalar(1e-3f);
            case OptimizerPrograms.STEP -> Tensor.scalar(3f);
            default -> weightLike(name, param, rng);
          });
    }
    return inputs;
  }

  private static Tensor weightLike(String name, Node param, Random rng) {
    if (name.startsWith(OptimizerPrograms.secondMoment(""))) {
      return Tensors.uniform(rng, DType.F32, param.shape(), 1e-4, 1e-3);
    }
    if (name.startsWith(OptimizerPrograms.firstMoment(""))) {
      return Tensors.uniform(rng, DType.F32, param.shape(), -0.01, 0.01);
    }
    if (param.dtype() != DType.F32) {
      throw new IllegalArgumentException("no input rule for parameter " + param);
    }
    return Tensors.uniform(rng, DType.F32, param.shape(), -0.5, 0.5);
  }

  private static Tensor positions(Shape shape, int first) {
    int[] data = new int[shape.intSize()];
    int cols = shape.dim(1);
    for (int i = 0; i < data.length; i++) {
      data[i] = first + i % cols;
    }
    return new Tensor.I32(shape, data);
  }

  /** A (B, N) 0/1 mask: row 0 real up to {@code first}, later rows up to {@code rest}. */
  private static Tensor rightPadded(Shape shape, int first, int rest) {
    float[] data = new float[shape.intSize()];
    int cols = shape.dim(1);
    for (int i = 0; i < data.length; i++) {
      data[i] = i % cols < (i < cols ? first : rest) ? 1f : 0f;
    }
    return new Tensor.F32(shape, data);
  }
}
