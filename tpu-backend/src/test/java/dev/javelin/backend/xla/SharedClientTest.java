package dev.javelin.backend.xla;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.javelin.backend.DType;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Devices opened on one plugin share its PJRT client (a trainer and samplers in one JVM): each
 * keeps its own buffers and executables, one closing leaves the others working, and a buffer of one
 * device is refused by another's executable.
 */
class SharedClientTest {

  private static Program twice() {
    GraphBuilder g = new GraphBuilder("twice");
    Node x = g.parameter("x", DType.F32, Shape.of(4));
    return g.build(g.add(x, x));
  }

  @Test
  @SuppressWarnings("try") // closes one device inside the block on purpose: the other must live on
  void devicesShareTheClientAndCloseIndependently() {
    System.setProperty(CompileCache.PROPERTY, Path.of("target", "xla-cache").toString());
    float[] in = {1, 2, 3, 4};
    try (XlaDevice a = (XlaDevice) Devices.open("xla:cpu");
        XlaDevice b = (XlaDevice) Devices.open("xla:cpu")) {
      Executable onA = a.compile(twice());
      DeviceBuffer x = a.upload(Tensor.of(in, 4));
      DeviceBuffer y = b.upload(Tensor.of(in, 4));
      assertThrows(IllegalArgumentException.class, () -> onA.run(List.of(y)));
      assertArrayEquals(
          new float[] {2, 4, 6, 8}, ((Tensor.F32) onA.run(List.of(x)).get(0).toHost()).data());
      a.close();
      Executable onB = b.compile(twice());
      assertArrayEquals(
          new float[] {2, 4, 6, 8}, ((Tensor.F32) onB.run(List.of(y)).get(0).toHost()).data());
    }
    try (XlaDevice c = (XlaDevice) Devices.open("xla:cpu")) {
      DeviceBuffer z = c.upload(Tensor.of(in, 4));
      assertArrayEquals(
          in, ((Tensor.F32) z.toHost()).data(), "a fresh client after the last close");
    }
  }
}
