package dev.javelin.backend.testing;

import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.backend.DType;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Op;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.reference.ReferenceDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Finite-difference gradient checks on the reference device: the gradient {@link Autodiff} builds
 * is compared with central differences {@code (L(x + ε) - L(x - ε)) / 2ε}, element by element. Run
 * in f64 so that the differences are accurate to about {@code ε²}.
 */
public final class GradCheck {
  private GradCheck() {}

  /** Builds the function under test from its parameter nodes (one per input, same order). */
  @FunctionalInterface
  public interface Fn {
    Node apply(GraphBuilder g, List<Node> params);
  }

  /**
   * Step, tolerance, how many elements per parameter to probe (the rest are skipped), and the
   * rematerialisation policy of the gradient under test.
   */
  public record Options(double epsilon, double tolerance, int maxElements, long seed, Remat remat) {
    public Options {
      if (!(epsilon > 0) || !(tolerance > 0) || maxElements < 1) {
        throw new IllegalArgumentException("epsilon, tolerance, maxElements must be positive");
      }
    }

    public static Options defaults() {
      return new Options(1e-6, 1e-6, 64, 42, Remat.NONE);
    }

    public Options withTolerance(double t) {
      return new Options(epsilon, t, maxElements, seed, remat);
    }

    public Options withEpsilon(double e) {
      return new Options(e, tolerance, maxElements, seed, remat);
    }

    public Options withRemat(Remat r) {
      return new Options(epsilon, tolerance, maxElements, seed, r);
    }
  }

  /**
   * Checks {@code f} on the inputs with default options; see {@link #check(String, Fn, List,
   * Options)}.
   */
  public static void check(String what, Fn f, List<? extends Tensor> inputs) {
    check(what, f, inputs, Options.defaults());
  }

  /**
   * Checks the gradient of {@code L(x) = Σ f(x) ⊙ R} for a fixed random R (so every output element
   * matters with a different weight) with respect to every f64 input.
   */
  public static void check(String what, Fn f, List<? extends Tensor> inputs, Options options) {
    GraphBuilder g = new GraphBuilder(what);
    List<Node> params = new ArrayList<>();
    List<String> wrt = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      Tensor t = inputs.get(i);
      params.add(g.parameter("x" + i, t.dtype(), t.shape()));
      if (t.dtype() == DType.F64) {
        wrt.add("x" + i);
      }
    }
    Node y = f.apply(g, params);
    if (y.dtype() != DType.F64) {
      throw new IllegalArgumentException(what + ": the function must return f64, got " + y);
    }
    Node r = g.parameter("weights", DType.F64, y.shape());
    Node prod = g.mul(y, r);
    int[] all = new int[y.shape().rank()];
    java.util.Arrays.setAll(all, i -> i);
    Node loss = all.length == 0 ? prod : g.reduceSum(prod, all);
    List<Tensor> args = new ArrayList<>(inputs);
    args.add(Tensors.random(new Random(options.seed()), DType.F64, y.shape().dims()));
    checkProgram(g.build(loss), args, wrt, options);
  }

  /**
   * Checks the gradient of output 0 (an f64 scalar) of {@code loss} with respect to the named
   * parameters.
   */
  public static void checkProgram(
      Program loss, List<? extends Tensor> args, List<String> wrt, Options options) {
    Program grads = Autodiff.gradientProgram(loss, wrt, options.remat());
    List<Tensor> analytic = ReferenceDevice.evaluate(grads, args);
    int skip = loss.outputs().size();
    Random rng = new Random(options.seed());
    for (int k = 0; k < wrt.size(); k++) {
      int index = ((Op.Parameter) loss.parameter(wrt.get(k)).op()).index();
      Tensor exact = analytic.get(skip + k);
      for (int e : probes(args.get(index).shape().intSize(), options.maxElements(), rng)) {
        double fd = centralDifference(loss, args, index, e, options.epsilon());
        double a = exact.getDouble(e);
        double err = Math.abs(a - fd) / Math.max(1, Math.abs(fd));
        if (!(err <= options.tolerance())) {
          fail(
              String.format(
                  "%s: d loss / d %s[%d]: autodiff %.12g vs finite difference %.12g (error %.3g > %.3g)",
                  loss.name(), wrt.get(k), e, a, fd, err, options.tolerance()));
        }
      }
    }
  }

  private static double centralDifference(
      Program loss, List<? extends Tensor> args, int index, int element, double eps) {
    double[] base = Tensors.toDoubles(args.get(index));
    double plus = lossAt(loss, args, index, base, element, base[element] + eps);
    double minus = lossAt(loss, args, index, base, element, base[element] - eps);
    return (plus - minus) / (2 * eps);
  }

  private static double lossAt(
      Program loss, List<? extends Tensor> args, int index, double[] base, int element, double v) {
    double[] moved = base.clone();
    moved[element] = v;
    List<Tensor> a = new ArrayList<>(args);
    a.set(index, new Tensor.F64(args.get(index).shape(), moved));
    return ReferenceDevice.evaluate(loss, a).get(0).getDouble(0);
  }

  private static int[] probes(int size, int max, Random rng) {
    if (size <= max) {
      int[] all = new int[size];
      java.util.Arrays.setAll(all, i -> i);
      return all;
    }
    return rng.ints(0, size).distinct().limit(max).toArray();
  }
}
