package dev.javelin.backend.stablehlo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.stablehlo.XlaCpuScript.Case;
import dev.javelin.backend.stablehlo.XlaCpuScript.Result;
import dev.javelin.backend.testing.Tensors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conformance of the StableHLO lowering: every primitive op and whole programs (an MLP train step;
 * the decoder model's forward, log-prob, prefill, decode, fused train-step and VJP programs; the
 * optimizer's) are printed, compiled and run on XLA:CPU (jaxlib, through {@code
 * tools/stablehlo_run.py}, one Python process for all cases) and compared with the reference device
 * and with the CPU device. Floats must agree to a normwise relative error {@code max|x - r| /
 * max|r|} of 1e-4 (1e-10 in f64); integers and booleans exactly.
 *
 * <p>Needs the project virtualenv with jax: {@value XlaCpuScript#SETUP} (the pom runs it). To keep
 * the emitted programs and inputs for running the script by hand, set {@code
 * -Djavelin.stablehlo.dir=/some/dir}.
 */
class StableHloXlaTest {
  private static final double F32_TOL = 1e-4;
  private static final double F64_TOL = 1e-10;
  private static final int SHOWN_TEXT = 4000;
  private static final List<Device> OPENED = new ArrayList<>();

  @AfterAll
  static void closeDevices() {
    OPENED.forEach(Device::close);
  }

  @TestFactory
  Stream<DynamicTest> xlaCpuAgreesWithReferenceAndCpuDevices(@TempDir Path tmp) throws Exception {
    String keep = System.getProperty("javelin.stablehlo.dir");
    Path dir = keep == null ? tmp : Files.createDirectories(Path.of(keep));
    List<Case> cases = new ArrayList<>(OpCases.all());
    cases.addAll(ProgramCases.all());
    cases.addAll(ModelCases.all());
    Map<String, Result> results = XlaCpuScript.fromSystemProperty().run(cases, dir);
    Device ref = open("ref");
    Device cpu = open("cpu");
    return cases.stream()
        .flatMap(
            c ->
                Stream.of(
                    dynamicTest(c.name() + " vs ref", () -> check(c, results.get(c.name()), ref)),
                    dynamicTest(c.name() + " vs cpu", () -> check(c, results.get(c.name()), cpu))));
  }

  private static Device open(String spec) {
    Device d = Devices.open(spec);
    OPENED.add(d);
    return d;
  }

  private static void check(Case c, Result xla, Device device) {
    assertNotNull(xla, c.name() + ": no result");
    if (xla.error() != null) {
      String text = StableHloPrinter.print(c.program());
      fail(
          c.name()
              + ": XLA rejected or failed the program: "
              + xla.error()
              + "\n"
              + text.substring(0, Math.min(text.length(), SHOWN_TEXT)));
    }
    List<Tensor> expected = run(device, c.program(), c.inputs());
    assertEquals(expected.size(), xla.outputs().size(), c.name() + ": output count");
    double worst = 0;
    for (int i = 0; i < expected.size(); i++) {
      String what = c.name() + " output " + i + " (" + device.name() + " vs XLA)";
      worst = Math.max(worst, assertAgree(expected.get(i), xla.outputs().get(i), what));
    }
    System.out.printf(
        "%s vs %s: worst normwise relative error %.2e%n", c.name(), device.name(), worst);
  }

  private static List<Tensor> run(Device device, Program program, List<Tensor> inputs) {
    List<DeviceBuffer> args = new ArrayList<>();
    for (Tensor t : inputs) {
      args.add(device.upload(t));
    }
    List<Tensor> out = new ArrayList<>();
    for (DeviceBuffer b : device.compile(program).run(args)) {
      out.add(b.toHost());
    }
    return out;
  }

  /**
   * Exact for integers and booleans; for floats {@code |a - e| <= tol * max|e|} elementwise, with
   * non-finite values matching exactly. Returns the normwise relative error of floats (0 else).
   */
  static double assertAgree(Tensor expected, Tensor actual, String what) {
    assertEquals(expected.dtype(), actual.dtype(), what + ": dtype");
    assertEquals(expected.shape(), actual.shape(), what + ": shape");
    int n = expected.shape().intSize();
    double scale = 0;
    for (int i = 0; i < n; i++) {
      double e = expected.getDouble(i);
      if (Double.isFinite(e)) {
        scale = Math.max(scale, Math.abs(e));
      }
    }
    double rel =
        switch (expected.dtype()) {
          case F32 -> F32_TOL;
          case BF16 -> Tensors.BF16_TOL;
          case F64 -> F64_TOL;
          case I32, PRED -> 0;
        };
    double worst = 0;
    for (int i = 0; i < n; i++) {
      double e = expected.getDouble(i);
      double a = actual.getDouble(i);
      boolean ok = Double.isFinite(e) ? Math.abs(a - e) <= rel * scale : Double.compare(e, a) == 0;
      if (!ok) {
        fail(
            String.format(
                "%s: element %d of %s%s: expected %.9g, XLA %.9g (tolerance %.3g)",
                what, i, expected.dtype().mlirName(), expected.shape(), e, a, rel * scale));
      }
      if (Double.isFinite(e) && scale > 0) {
        worst = Math.max(worst, Math.abs(a - e) / scale);
      }
    }
    return worst;
  }
}
