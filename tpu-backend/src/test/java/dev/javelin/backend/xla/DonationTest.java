package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Input/output aliasing: a donated argument's memory is reused by its output. */
class DonationTest {

  private static Program step() {
    GraphBuilder g = new GraphBuilder("sgd_step");
    Node w = g.parameter("w", DType.F32, Shape.of(256));
    Node grad = g.parameter("grad", DType.F32, Shape.of(256));
    Node loss = g.reduceSum(g.mul(w, w), 0);
    return g.build(loss, g.sub(w, g.mul(grad, g.full(grad, 0.5))));
  }

  @Test
  void annotatesTheDonatedArgument() {
    Program p = step();
    String text =
        AliasAnnotation.annotate(
            dev.javelin.backend.stablehlo.StableHloPrinter.print(p), p, new Donation(Map.of(0, 1)));
    assertTrue(text.contains("%arg0: tensor<256xf32> {tf.aliasing_output = 1 : i32}, %arg1"), text);
  }

  @Test
  void rejectsMismatchedAliases() {
    Program p = step();
    var e =
        assertThrows(IllegalArgumentException.class, () -> new Donation(Map.of(0, 0)).validate(p));
    assertTrue(e.getMessage().contains("cannot donate parameter 0"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Donation(Map.of(0, 7)).validate(p));
  }

  @Test
  void donatedWeightsAreUpdatedInPlace() {
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    float[] w0 = new float[256];
    float[] g0 = new float[256];
    for (int i = 0; i < 256; i++) {
      w0[i] = i / 256f;
      g0[i] = 1f;
    }
    try (XlaDevice d = (XlaDevice) Devices.open("xla:cpu");
        Executable plain = d.compile(step());
        Executable inPlace = d.compile(step(), new Donation(Map.of(0, 1)))) {
      XlaBuffer w = (XlaBuffer) d.upload(Tensor.of(w0, 256));
      DeviceBuffer g = d.upload(Tensor.of(g0, 256));
      long before = w.deviceAddress();
      List<DeviceBuffer> copied = plain.run(List.of(w, g));
      assertNotEquals(before, ((XlaBuffer) copied.get(1)).deviceAddress());
      List<DeviceBuffer> updated = inPlace.run(List.of(w, g));
      assertEquals(before, ((XlaBuffer) updated.get(1)).deviceAddress(), "aliased output");
      assertThrows(IllegalStateException.class, w::toHost, "the donated input is consumed");
      assertArrayEquals(
          ((Tensor.F32) copied.get(1).toHost()).data(),
          ((Tensor.F32) updated.get(1).toHost()).data());
      g.close();
    }
  }
}
