package dev.javelin.backend.xla;

import dev.javelin.backend.DType;
import dev.javelin.backend.Donation;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.Barriers;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.model.WeightSpec;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.program.ShardPlan;
import dev.javelin.backend.program.TrainPrograms;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.backend.stablehlo.RematFenceXlaTest;
import dev.javelin.backend.stablehlo.StableHloPrinter;
import dev.javelin.backend.testing.PgLoss;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the StableHLO text of a Qwen2.5-0.5B-shape fused train step (bf16 compute, weights, AdamW
 * state and batch over {@code fsdp}, donation as the optimizer compiles it) for an ahead-of-time
 * TPU compile by {@code tools/tpu_stablehlo_stats.py}. Bench only: real-size compiles take minutes.
 *
 * <p>Arguments: {@code OUT.mlir LAYERS BATCH TOKENS REMAT [FSDP]}, or {@code fence OUT.mlir REMAT}
 * (REMAT: a {@link Remat} name, or {@code BLOCKS_UNFENCED} for per-block recomputation without its
 * optimization barriers), e.g. {@code /tmp/t.mlir 2 64 1024 BLOCKS 8}.
 */
public final class TpuProgramDump {
  private TpuProgramDump() {}

  /**
   * {@code fence OUT.mlir REMAT}: the gradient of {@link RematFenceXlaTest#loss} at 8 layers of
   * 8192 × 1024 with a 4096-wide inner layer (f32, one chip).
   */
  private static void fence(Path out, String mode) throws Exception {
    Program loss = RematFenceXlaTest.loss(8, 8192, 1024, 4096);
    Remat remat = Remat.valueOf(mode.replace("_UNFENCED", ""));
    Program p = Autodiff.gradientProgram(loss, RematFenceXlaTest.weights(loss), remat);
    Files.writeString(
        out, StableHloPrinter.print(mode.endsWith("_UNFENCED") ? Barriers.strip(p) : p));
  }

  /** Qwen2.5-0.5B's shape with {@code layers} layers and {@code positions} positions. */
  static ModelConfig qwen05b(int layers, int positions) {
    return new ModelConfig(
        151_936, 896, 4864, layers, 14, 2, 64, 1e6, 1e-6, true, true, positions, LlamaFamily.QWEN2);
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("fence")) {
      fence(Path.of(args[1]), args[2]);
      return;
    }
    Path out = Path.of(args[0]);
    int layers = Integer.parseInt(args[1]);
    int b = Integer.parseInt(args[2]);
    int t = Integer.parseInt(args[3]);
    boolean unfenced = args[4].endsWith("_UNFENCED"); // the step as built before remat fences
    Remat remat = Remat.valueOf(args[4].replace("_UNFENCED", ""));
    int fsdp = args.length > 5 ? Integer.parseInt(args[5]) : 8;
    ModelConfig c = qwen05b(layers, t);
    long start = System.nanoTime();
    Program p =
        TrainPrograms.fused(c, b, t, t, new PgLoss(), AdamWConfig.defaults(), remat, DType.BF16);
    p = unfenced ? Barriers.strip(p) : p;
    List<String> names = WeightSpec.layout(c).stream().map(WeightSpec::name).toList();
    if (fsdp > 1) {
      ShardPlan plan = ShardPlan.of(Mesh.of(MeshShape.FSDP, fsdp), c);
      p = p.withSharding(plan.program(p, ShardPlan.after(3, ShardPlan.updateNames(names))));
    }
    Donation donation = TrainPrograms.fusedInPlace(p, names);
    String text = AliasAnnotation.annotate(StableHloPrinter.print(p), p, donation);
    Files.writeString(out, text);
    System.out.printf(
        "%s: %d nodes, %d ops in text, %.1f MB, built in %.1f s%n",
        out,
        p.nodes().size(),
        text.lines().filter(l -> l.contains(" = stablehlo.")).count(),
        text.length() / 1e6,
        (System.nanoTime() - start) / 1e9);
  }
}
