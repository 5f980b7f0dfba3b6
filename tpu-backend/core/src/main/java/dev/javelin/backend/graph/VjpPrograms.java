package dev.javelin.backend.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * A program split for losses computed outside it: {@link #forward} returns the original outputs
 * {@code Y} followed by residuals, and {@link #backward} maps (residuals, cotangents {@code Ȳ}) to
 * the gradients {@code W̄ = Ȳ · ∂Y/∂W} of the chosen parameters.
 *
 * <p>Typical use: run {@code forward}, compute the loss and {@code ∂loss/∂Y} on the host, then run
 * {@code backward} with {@link #backwardArguments}. Residuals that are forward arguments (the
 * weights, token ids) are not returned by {@code forward}; they are passed again from the caller's
 * own buffers.
 *
 * @param forward the original parameters; outputs {@code Y} (as in the source program), then the
 *     residuals that are not arguments
 * @param backward parameters: every residual in {@link #residuals} order, then one cotangent per
 *     entry of {@link #cotangentOutputs}; outputs one gradient per name in {@link #wrt}
 * @param outputCount how many leading forward outputs are the original {@code Y}
 * @param cotangentOutputs indices into {@code Y} of the floating outputs that take a cotangent
 * @param residuals where each backward residual parameter comes from
 * @param wrt names of the parameters differentiated, in gradient order
 */
public record VjpPrograms(
    Program forward,
    Program backward,
    int outputCount,
    List<Integer> cotangentOutputs,
    List<Residual> residuals,
    List<String> wrt) {

  public VjpPrograms {
    cotangentOutputs = List.copyOf(cotangentOutputs);
    residuals = List.copyOf(residuals);
    wrt = List.copyOf(wrt);
  }

  /** The backward's parameter carrying residual {@code k}. */
  public static String residualName(int k) {
    return "residual." + k;
  }

  /** Where a residual comes from: a forward argument or a forward result, by index. */
  public record Residual(Source source, int index) {
    /** Residual origin. */
    public enum Source {
      ARGUMENT,
      FORWARD_RESULT
    }
  }

  /** The original outputs {@code Y} among the forward results. */
  public <T> List<T> outputs(List<T> forwardResults) {
    return forwardResults.subList(0, outputCount);
  }

  /**
   * Assembles the backward program's arguments.
   *
   * @param forwardArguments the arguments the forward program ran with
   * @param forwardResults what it returned
   * @param cotangents one per entry of {@link #cotangentOutputs}, shaped like that output
   */
  public <T> List<T> backwardArguments(
      List<? extends T> forwardArguments,
      List<? extends T> forwardResults,
      List<? extends T> cotangents) {
    if (cotangents.size() != cotangentOutputs.size()) {
      throw new IllegalArgumentException(
          "backward of '"
              + forward.name()
              + "' needs "
              + cotangentOutputs.size()
              + " cotangents, got "
              + cotangents.size());
    }
    List<T> args = new ArrayList<>(residuals.size() + cotangents.size());
    for (Residual r : residuals) {
      args.add(
          r.source() == Residual.Source.ARGUMENT
              ? forwardArguments.get(r.index())
              : forwardResults.get(r.index()));
    }
    args.addAll(cotangents);
    return args;
  }
}
