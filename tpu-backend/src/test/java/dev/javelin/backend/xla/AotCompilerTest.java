package dev.javelin.backend.xla;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.javelin.backend.DType;
import dev.javelin.backend.Donation;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.CausalAttention;
import dev.javelin.backend.model.LlamaFamily;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.program.ModelPrograms;
import dev.javelin.backend.runtime.ActorPrograms;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.backend.testing.WithProperty;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiles the tiny model's trainer and sampler programs for TPU topologies with libtpu (no TPU)
 * and checks every per-chip figure against what JAX reports for the same StableHLO text ({@code
 * tools/tpu_stablehlo_stats.py}, the same libtpu through JAX's compile-only client), and that
 * donation shows as aliased bytes.
 */
class AotCompilerTest {
  @TempDir Path dir;

  @Test
  void sliceNamesMapToLibtpuTopologies() {
    assertEquals("v5e:2x4", TpuTopology.parse("v5e-8").pjrtName());
    assertEquals(8, TpuTopology.parse("v6e-8").chips());
    assertEquals("v6e:2x4", TpuTopology.parse("v6e-8").pjrtName());
    TpuTopology v5p = TpuTopology.parse("v5p-8");
    assertEquals("v5p:2x2x1", v5p.pjrtName());
    assertEquals(4, v5p.chips(), "v5p slice names count TensorCores, two per chip");
    assertEquals("v5e:4x4", TpuTopology.parse("v5e-16").pjrtName());
    assertEquals(16, TpuTopology.parse("v5e:4x4").chips());
    IllegalArgumentException bad =
        assertThrows(IllegalArgumentException.class, () -> TpuTopology.parse("v9x-8"));
    assertTrue(bad.getMessage().contains("v9x"), bad.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TpuTopology.parse("v5e-6"));
  }

  @Test
  void tinyProgramsMatchJaxOnV5eAndV6e() throws Exception {
    ModelConfig c = ModelConfig.tiny();
    List<ActorPrograms.Planned> programs = new ArrayList<>();
    programs.addAll(
        ActorPrograms.trainer(
            c, new MeshShape(1, 8, 1), 8, 64, Remat.BLOCKS, DType.BF16, AdamWConfig.defaults()));
    programs.addAll(ActorPrograms.sampler(c, 2, 8, 16, 64, DType.BF16));
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < programs.size(); i++) {
      ActorPrograms.Planned p = programs.get(i);
      Path f = dir.resolve(i + ".mlir");
      Files.writeString(f, AotCompiler.moduleText(p.program(), p.donation()), UTF_8);
      files.add(f);
    }
    for (String topology : List.of("v5e-8", "v6e-8")) {
      List<JsonNode> jax = jaxStats(files, topology);
      try (AotCompiler aot = AotCompiler.open(TpuTopology.parse(topology))) {
        for (int i = 0; i < programs.size(); i++) {
          ActorPrograms.Planned p = programs.get(i);
          CompiledStats s = aot.compile(p.program(), p.donation());
          JsonNode j = jax.get(i);
          String what = topology + " " + p.label();
          assertEquals(j.get("argument_bytes").asLong(), s.argumentBytes(), what + " arguments");
          assertEquals(j.get("output_bytes").asLong(), s.outputBytes(), what + " outputs");
          assertEquals(j.get("alias_bytes").asLong(), s.aliasBytes(), what + " aliases");
          assertEquals(j.get("temp_bytes").asLong(), s.tempBytes(), what + " temporaries");
          assertEquals(j.get("flops").asDouble(), s.flops(), 1e-6 * s.flops(), what + " flops");
          assertTrue(s.argumentBytes() > 0 && s.flops() > 0, what + " compiled to nothing");
          if (p.label().equals("adamw")) {
            // weights, m and v are donated: three f32 copies of the model, split over 8 chips
            long donated = 3 * 4 * c.parameterCount() / 8;
            assertTrue(s.aliasBytes() >= donated, what + " aliased " + s.aliasBytes());
          }
        }
      }
    }
  }

  @Test
  void tinyProgramsCompileOverChipsOfSeveralHosts() throws Exception {
    // v5e-16 is four hosts of 2x2 chips; libtpu lists a host's chips together (ids 0, 1, 4, 5
    // first). A trainer over 8 chips spans two hosts, one over 16 all four; a sampler over 4 chips
    // is the case libtpu refused while programs were given the first devices listed, not ids 0..3.
    ModelConfig c = ModelConfig.tiny();
    List<ActorPrograms.Planned> programs =
        List.of(
            ActorPrograms.trainer(
                    c,
                    new MeshShape(1, 8, 1),
                    8,
                    64,
                    Remat.BLOCKS,
                    DType.BF16,
                    AdamWConfig.defaults())
                .get(0),
            ActorPrograms.sampler(c, 4, 8, 16, 64, DType.BF16).get(0),
            ActorPrograms.trainer(
                    c,
                    new MeshShape(1, 16, 1),
                    16,
                    64,
                    Remat.BLOCKS,
                    DType.BF16,
                    AdamWConfig.defaults())
                .get(0));
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < programs.size(); i++) {
      Path f = dir.resolve("multihost-" + i + ".mlir");
      ActorPrograms.Planned p = programs.get(i);
      Files.writeString(f, AotCompiler.moduleText(p.program(), p.donation()), UTF_8);
      files.add(f);
    }
    List<JsonNode> jax = jaxStats(files, "v5e-16");
    try (AotCompiler aot = AotCompiler.open(TpuTopology.parse("v5e-16"))) {
      for (int i = 0; i < programs.size(); i++) {
        ActorPrograms.Planned p = programs.get(i);
        CompiledStats s = aot.compile(p.program(), p.donation());
        String what = "v5e-16 " + p.label();
        assertEquals(jax.get(i).get("argument_bytes").asLong(), s.argumentBytes(), what);
        assertEquals(jax.get(i).get("temp_bytes").asLong(), s.tempBytes(), what);
        assertTrue(s.argumentBytes() > 0 && s.flops() > 0, what + " compiled to nothing");
      }
    }
  }

  /**
   * On a v6e chip, the log-prob program's temporaries grow with the square of the sequence under
   * dense attention and linearly with blockwise attention (blocks of 256 keys): one small layer,
   * one row, 1,024 and 2,048 tokens.
   */
  @Test
  void blockwiseAttentionTemporariesGrowLinearlyOnTpu() {
    ModelConfig c =
        new ModelConfig(64, 32, 48, 1, 4, 2, 8, 10_000, 1e-6, true, true, 4096, LlamaFamily.QWEN2);
    long[][] temps = new long[2][2]; // [dense, blockwise][1024, 2048]
    try (AotCompiler aot = AotCompiler.open(TpuTopology.parse("v6e-8"))) {
      for (int form = 0; form < 2; form++) {
        for (int k = 0; k < 2; k++) {
          int t = 1024 << k;
          String block = form == 0 ? "0" : "256";
          Program p =
              WithProperty.with(
                  CausalAttention.PROPERTY, block, () -> ModelPrograms.logProbs(c, 1, t, t));
          temps[form][k] = aot.compile(p, Donation.none()).tempBytes();
        }
      }
    }
    String all = java.util.Arrays.deepToString(temps);
    long scores = 4L * 2048 * 2048 * Float.BYTES; // (H, T, T) f32 at 2,048 tokens
    assertTrue(temps[0][1] >= scores, "dense holds the scores: " + all);
    assertTrue(temps[1][1] <= temps[0][1] / 8, "blockwise holds tiles: " + all);
    assertTrue(temps[1][1] <= 2 * temps[1][0] + (1 << 20), "blockwise grows with T: " + all);
  }

  private static List<JsonNode> jaxStats(List<Path> files, String topology) throws Exception {
    Path root = Path.of(System.getProperty("javelin.root", "."));
    List<String> cmd = new ArrayList<>();
    cmd.add(root.resolve(".venv/bin/python").toString());
    cmd.add(root.resolve("tools/tpu_stablehlo_stats.py").toString());
    files.forEach(f -> cmd.add(f.toString()));
    cmd.add("--topology");
    cmd.add(topology);
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "tpu_stablehlo_stats.py did not finish");
    assertEquals(0, p.exitValue(), "tpu_stablehlo_stats.py failed:\n" + out);
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> rows = new ArrayList<>();
    for (String line : out.strip().split("\n", -1)) {
      rows.add(json.readTree(line));
    }
    assertEquals(files.size(), rows.size(), out);
    return rows;
  }
}
