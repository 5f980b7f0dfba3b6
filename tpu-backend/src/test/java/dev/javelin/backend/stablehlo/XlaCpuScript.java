package dev.javelin.backend.stablehlo;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs a batch of programs on XLA:CPU through {@code tools/stablehlo_run.py} in one Python process:
 * writes each program's StableHLO text and raw little-endian inputs plus a JSON manifest into a
 * directory, runs the script with the project virtualenv, and reads the outputs back.
 */
final class XlaCpuScript {
  static final String SETUP = "tools/setup/venv.sh tools/requirements/stablehlo.txt";

  /** One program with its arguments. */
  record Case(String name, Program program, List<Tensor> inputs) {
    Case {
      if (!name.matches("[A-Za-z0-9_.-]+")) {
        throw new IllegalArgumentException("case name must be a plain file name: " + name);
      }
      if (inputs.size() != program.parameters().size()) {
        throw new IllegalArgumentException(
            name + ": " + inputs.size() + " inputs for " + program.parameters().size() + " params");
      }
      inputs = List.copyOf(inputs);
    }
  }

  /**
   * What XLA returned for one case: outputs, or the compile/run error it reported; with repeats,
   * the median seconds of one execution (NaN otherwise).
   */
  record Result(List<Tensor> outputs, String error, double medianSeconds) {}

  private final Path root;

  XlaCpuScript(Path repoRoot) {
    this.root = repoRoot;
  }

  /** The repository root from the {@code javelin.root} system property that surefire sets. */
  static XlaCpuScript fromSystemProperty() {
    String r = System.getProperty("javelin.root");
    if (r == null) {
      throw new IllegalStateException("system property javelin.root is not set (surefire sets it)");
    }
    return new XlaCpuScript(Path.of(r));
  }

  /** Runs every case in one script invocation; keys are case names in the given order. */
  Map<String, Result> run(List<Case> cases, Path dir) throws IOException, InterruptedException {
    return run(cases, dir, 0, false);
  }

  /**
   * As {@link #run(List, Path)}, then runs each case {@code repeats} more times for a median; with
   * {@code fullOpt} XLA compiles with its default (slower to compile) LLVM optimisation.
   */
  Map<String, Result> run(List<Case> cases, Path dir, int repeats, boolean fullOpt)
      throws IOException, InterruptedException {
    Path python = root.resolve(".venv/bin/python");
    if (!Files.isExecutable(python)) {
      throw new IllegalStateException(
          "no Python virtualenv at " + python + "; create it with: cd " + root + " && " + SETUP);
    }
    StringBuilder manifest = new StringBuilder("{\"cases\": [\n");
    for (int c = 0; c < cases.size(); c++) {
      manifest.append(c > 0 ? ",\n" : "").append(writeCase(cases.get(c), dir));
    }
    Files.writeString(dir.resolve("manifest.json"), manifest.append("\n]}\n"), UTF_8);
    Path log = dir.resolve("script.log");
    long start = System.nanoTime();
    List<String> command =
        new ArrayList<>(
            List.of(
                python.toString(),
                root.resolve("tools/stablehlo_run.py").toString(),
                dir.toString(),
                "--repeat",
                Integer.toString(repeats)));
    if (fullOpt) {
      command.add("--full-opt");
    }
    Process p =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(20, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("stablehlo_run.py did not finish in 20 minutes");
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(
          "stablehlo_run.py failed (exit "
              + p.exitValue()
              + "); if jax is missing run: cd "
              + root
              + " && "
              + SETUP
              + "\n"
              + Files.readString(log, UTF_8));
    }
    System.out.printf(
        "stablehlo_run.py: %d programs compiled and run on XLA:CPU in %.1f s%n",
        cases.size(), (System.nanoTime() - start) / 1e9);
    return readResults(cases, dir);
  }

  private static String writeCase(Case c, Path dir) throws IOException {
    Files.writeString(dir.resolve(c.name() + ".mlir"), StableHloPrinter.print(c.program()), UTF_8);
    List<String> ins = new ArrayList<>();
    for (int i = 0; i < c.inputs().size(); i++) {
      Tensor t = c.inputs().get(i);
      Node param = c.program().parameters().get(i);
      if (t.dtype() != param.dtype() || !t.shape().equals(param.shape())) {
        throw new IllegalArgumentException(
            c.name() + ": input " + i + " is " + t.describe() + ", parameter is " + param);
      }
      String file = c.name() + ".in" + i + ".bin";
      Files.write(dir.resolve(file), toBytes(t));
      ins.add(spec(file, t.dtype(), t.shape()));
    }
    List<String> outs = new ArrayList<>();
    List<Node> outputs = c.program().outputs();
    for (int i = 0; i < outputs.size(); i++) {
      outs.add(
          spec(c.name() + ".out" + i + ".bin", outputs.get(i).dtype(), outputs.get(i).shape()));
    }
    return String.format(
        "{\"name\": \"%s\", \"program\": \"%s.mlir\", \"inputs\": [%s], \"outputs\": [%s]}",
        c.name(), c.name(), String.join(", ", ins), String.join(", ", outs));
  }

  private static String spec(String file, DType dtype, Shape shape) {
    String dims =
        Arrays.stream(shape.dims()).mapToObj(Integer::toString).collect(Collectors.joining(", "));
    return String.format(
        "{\"file\": \"%s\", \"dtype\": \"%s\", \"shape\": [%s]}", file, dtype.mlirName(), dims);
  }

  private static Map<String, Result> readResults(List<Case> cases, Path dir) throws IOException {
    Map<String, String[]> lines = new LinkedHashMap<>();
    for (String line : Files.readAllLines(dir.resolve("results.tsv"), UTF_8)) {
      String[] cols = line.split("\t", 4);
      if (cols.length >= 3) {
        lines.put(cols[0], cols);
      }
    }
    Map<String, Result> results = new LinkedHashMap<>();
    for (Case c : cases) {
      String[] cols = lines.get(c.name());
      if (cols == null) {
        results.put(
            c.name(), new Result(List.of(), "no result line from stablehlo_run.py", Double.NaN));
      } else if (!cols[1].equals("ok")) {
        results.put(c.name(), new Result(List.of(), cols[2], Double.NaN));
      } else {
        List<Tensor> outs = new ArrayList<>();
        List<Node> outputs = c.program().outputs();
        for (int i = 0; i < outputs.size(); i++) {
          byte[] bytes = Files.readAllBytes(dir.resolve(c.name() + ".out" + i + ".bin"));
          outs.add(fromBytes(bytes, outputs.get(i).dtype(), outputs.get(i).shape()));
        }
        double median = cols.length == 4 ? Double.parseDouble(cols[3]) : Double.NaN;
        results.put(c.name(), new Result(outs, null, median));
      }
    }
    return results;
  }

  static byte[] toBytes(Tensor t) {
    requireNotBf16(t.dtype());
    int n = t.shape().intSize();
    ByteBuffer b = ByteBuffer.allocate(n * t.dtype().byteSize()).order(ByteOrder.LITTLE_ENDIAN);
    if (t instanceof Tensor.F32 f) {
      b.asFloatBuffer().put(f.data());
    } else if (t instanceof Tensor.F64 d) {
      b.asDoubleBuffer().put(d.data());
    } else if (t instanceof Tensor.I32 i) {
      b.asIntBuffer().put(i.data());
    } else {
      boolean[] p = ((Tensor.Pred) t).data();
      for (boolean v : p) {
        b.put((byte) (v ? 1 : 0));
      }
    }
    return b.array();
  }

  /** bf16 programs run on the xla:cpu device (XlaCpuDeviceTest), not through this script. */
  private static void requireNotBf16(DType dtype) {
    if (dtype == DType.BF16) {
      throw new IllegalArgumentException(
          "tools/stablehlo_run.py carries no bf16 tensors; run bf16 programs on xla:cpu");
    }
  }

  static Tensor fromBytes(byte[] bytes, DType dtype, Shape shape) {
    requireNotBf16(dtype);
    int n = shape.intSize();
    if (bytes.length != n * dtype.byteSize()) {
      throw new IllegalStateException(
          bytes.length + " bytes for " + shape.mlirType(dtype) + " (" + n + " elements)");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    return switch (dtype) {
      case F32 -> {
        float[] a = new float[n];
        b.asFloatBuffer().get(a);
        yield new Tensor.F32(shape, a);
      }
      case F64 -> {
        double[] a = new double[n];
        b.asDoubleBuffer().get(a);
        yield new Tensor.F64(shape, a);
      }
      case BF16 -> throw new AssertionError("checked above");
      case I32 -> {
        int[] a = new int[n];
        b.asIntBuffer().get(a);
        yield new Tensor.I32(shape, a);
      }
      case PRED -> {
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) {
          a[i] = bytes[i] != 0;
        }
        yield new Tensor.Pred(shape, a);
      }
    };
  }
}
