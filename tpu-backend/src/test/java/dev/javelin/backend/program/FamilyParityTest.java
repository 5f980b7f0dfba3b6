package dev.javelin.backend.program;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.runtime.GreedyDecode;
import dev.javelin.backend.runtime.PolicyModel;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each family beyond Llama/Qwen2 against transformers (tools/hf_fixtures.py) on {@code cpu} and
 * {@code xla:cpu}: f32 logits and every gradient within 1e-5 relative error, and the greedy
 * continuation of the first prompt token-identical. (HfParityTest covers the same fixtures on the
 * reference device with its looser bounds.)
 */
class FamilyParityTest {
  private static final double TOL = 1e-5;

  /** The fixture's prompt length (tools/hf_fixtures.py PROMPT_LEN). */
  private static final int PROMPT = 3;

  static Stream<Arguments> cases() {
    return Stream.of("cpu", "xla:cpu")
        .flatMap(d -> HfParityTest.FAMILIES.stream().map(m -> Arguments.of(d, m)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void logitsMatchTransformers(String device, String name) {
    HfParityTest.assertLogitsMatch(device, name, TOL);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void gradientsMatchTransformers(String device, String name) {
    HfParityTest.assertGradientsMatch(device, name, TOL, TOL);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void greedyContinuationMatchesTransformers(String device, String name) {
    HfFixture fx = HfFixture.load(name);
    Tensor want = fx.get("greedy");
    int[] ids = new int[PROMPT];
    for (int i = 0; i < PROMPT; i++) {
      ids[i] = (int) fx.ids().getDouble(i);
    }
    try (Device d = Devices.open(device);
        PolicyModel policy = PolicyModel.of(d, fx.checkpoint())) {
      int[] got = GreedyDecode.generate(policy, List.of(ids), want.shape().dim(1), -1).get(0);
      assertArrayEquals(((Tensor.I32) want).data(), got, name + " greedy on " + device);
    }
  }
}
