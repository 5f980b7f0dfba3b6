package dev.javelin.backend.stablehlo;

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
import dev.javelin.backend.testing.Tensors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Meaningful arguments for the model's programs, chosen by parameter name: valid token ids,
 * right-padded masks, rotary tables, positions continuing a cache at {@code slot}, non-negative
 * second moments, and small random weights.
 *
 * @param config the model the programs were built for
 * @param slot the KV-cache slot a decode step writes (its rotary position too)
 */
record ModelInputs(ModelConfig config, int slot, RopeTable rope) {

  ModelInputs(ModelConfig config, int slot) {
    this(config, slot, RopeTable.compute(config, config.maxPositions()));
  }

  /** Arguments for every parameter of {@code program}, which holds {@code t} tokens per row. */
  List<Tensor> forProgram(Program program, int t, Random rng) {
    List<Tensor> inputs = new ArrayList<>();
    for (Node param : program.parameters()) {
      inputs.add(input(((Op.Parameter) param.op()).name(), param, t, rng));
    }
    return inputs;
  }

  private Tensor input(String name, Node param, int t, Random rng) {
    Shape shape = param.shape();
    return switch (name) {
      case ModelPrograms.INPUT_IDS -> Tensors.randomInts(rng, config.vocabSize(), shape.dims());
      case ModelPrograms.POSITIONS -> positions(shape, t == 1 ? slot : 0);
      case ModelPrograms.ATTENTION_MASK ->
          t == 1 ? rightPadded(shape, 1, 1) : rightPadded(shape, t, t - 2);
      case ModelPrograms.KEY_MASK -> rightPadded(shape, slot, slot - 2);
      case ModelPrograms.ROPE_COS -> rope.cos();
      case ModelPrograms.ROPE_SIN -> rope.sin();
      case ModelPrograms.TEMPERATURE -> Tensor.scalar(0.8f);
      case ModelPrograms.CACHE_SLOT -> Tensors.i32Scalar(slot);
      case OptimizerPrograms.LR -> Tensor.scalar(1e-3f);
      case OptimizerPrograms.STEP -> Tensor.scalar(3f);
      default -> floatInput(name, param, rng);
    };
  }

  /** Weights, caches, gradients, loss inputs and optimizer moments. */
  private static Tensor floatInput(String name, Node param, Random rng) {
    if (param.dtype() != DType.F32) {
      throw new IllegalArgumentException("no input rule for parameter " + param);
    }
    if (name.startsWith(OptimizerPrograms.secondMoment(""))) {
      return Tensors.uniform(rng, DType.F32, param.shape(), 1e-4, 1e-3); // v >= 0
    }
    if (name.startsWith(OptimizerPrograms.firstMoment(""))) {
      return Tensors.uniform(rng, DType.F32, param.shape(), -0.01, 0.01);
    }
    // small values keep activations in the range real models see
    return Tensors.uniform(rng, DType.F32, param.shape(), -0.5, 0.5);
  }

  /** Row r holds positions from {@code first}. */
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
