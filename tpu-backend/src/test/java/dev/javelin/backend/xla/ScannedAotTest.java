package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.graph.Remat;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.optim.AdamWConfig;
import dev.javelin.backend.runtime.ActorPrograms;
import dev.javelin.backend.spmd.MeshShape;
import dev.javelin.backend.stablehlo.StableHloPrinter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The trainer's programs with scanned layers (log-probs, the log-prob VJP's forward and backward,
 * AdamW) compile ahead of time for v5e-8 with libtpu, sharded over fsdp=8, bf16, per-layer remat:
 * one loop in the log-prob and forward programs, one in the backward.
 */
class ScannedAotTest {
  @Test
  void scannedTrainerProgramsCompileForV5e() {
    ModelConfig c = ModelConfig.tiny();
    List<ActorPrograms.Planned> programs =
        ScannedLayersTest.scanned(
            () ->
                ActorPrograms.trainer(
                    c,
                    new MeshShape(1, 8, 1),
                    8,
                    64,
                    Remat.BLOCKS,
                    DType.BF16,
                    AdamWConfig.defaults()));
    try (AotCompiler aot = AotCompiler.open(TpuTopology.parse("v5e-8"))) {
      for (ActorPrograms.Planned p : programs) {
        String text = StableHloPrinter.print(p.program());
        int loops = text.split("\"stablehlo.while\"", -1).length - 1;
        assertEquals(p.label().equals("adamw") ? 0 : 1, loops, p.label() + " loops");
        CompiledStats s = aot.compile(p.program(), p.donation());
        assertTrue(s.argumentBytes() > 0 && s.flops() > 0, p.label() + " compiled to nothing");
      }
    }
  }
}
