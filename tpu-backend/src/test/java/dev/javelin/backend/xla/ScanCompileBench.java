package dev.javelin.backend.xla;

import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.LayerLoop;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.runtime.ActorPrograms;
import dev.javelin.backend.spmd.MeshShape;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark, not a test: ahead-of-time compile time and per-chip temporaries of the trainer's train
 * step (the log-prob VJP's forward and backward programs, bf16, per-layer remat, fsdp=8 on v5e-8)
 * with the layers unrolled or scanned, at the {@link ModelConfig#small} shape with a chosen depth.
 *
 * <pre>
 * ./mvnw -B -o -q install -DskipTests -pl tpu-backend -am
 * java -cp tpu-backend/target/classes:tpu-backend/target/test-classes:$(cat cp.txt) \
 *   -Djavelin.layers=scanned dev.javelin.backend.xla.ScanCompileBench 32 8 256
 * </pre>
 *
 * Arguments: layers, batch, sequence length, optionally a config.json for the shape (else {@link
 * ModelConfig#small}). One line per program: label, layers, mode, compile seconds, temporaries per
 * chip (MiB), XLA's flops per chip (a while body counted once).
 */
public final class ScanCompileBench {
  private ScanCompileBench() {}

  public static void main(String[] args) throws java.io.IOException {
    int layers = Integer.parseInt(args[0]);
    int b = Integer.parseInt(args[1]);
    int t = Integer.parseInt(args[2]);
    ModelConfig s =
        args.length > 3
            ? dev.javelin.backend.checkpoint.HfConfigJson.read(java.nio.file.Path.of(args[3]))
            : ModelConfig.small();
    ModelConfig c =
        new ModelConfig(
            s.vocabSize(),
            s.hidden(),
            s.intermediate(),
            layers,
            s.heads(),
            s.kvHeads(),
            s.headDim(),
            s.ropeTheta(),
            s.rmsNormEps(),
            s.tieWordEmbeddings(),
            s.qkvBias(),
            t,
            s.architecture());
    List<ActorPrograms.Planned> programs =
        ActorPrograms.trainer(
            c, new MeshShape(1, 8, 1), b, t, Remat.BLOCKS, DType.BF16, AdamWConfig.defaults());
    String mode = LayerLoop.configured().name().toLowerCase(Locale.ROOT);
    try (AotCompiler aot = AotCompiler.open(TpuTopology.parse("v5e-8"))) {
      for (ActorPrograms.Planned p : programs) {
        if (!p.label().startsWith("train")) {
          continue;
        }
        String dump = System.getProperty("bench.dump");
        if (dump != null) {
          java.nio.file.Files.writeString(
              java.nio.file.Path.of(dump, p.label().replace(' ', '_') + "_" + mode + ".mlir"),
              AotCompiler.moduleText(p.program(), p.donation()));
        }
        CompiledStats st = aot.compile(p.program(), p.donation());
        System.out.printf(
            Locale.ROOT,
            "%s layers=%d %s compile=%.1fs temps=%.3fMiB args=%.1fMiB out=%.1fMiB gflops=%.2f%n",
            p.label(),
            layers,
            mode,
            st.compileSeconds(),
            st.tempBytes() / 1048576.0,
            st.argumentBytes() / 1048576.0,
            st.outputBytes() / 1048576.0,
            st.flops() / 1e9);
      }
    }
  }
}
