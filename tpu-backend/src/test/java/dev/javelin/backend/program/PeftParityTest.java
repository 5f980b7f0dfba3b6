package dev.javelin.backend.program;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.Devices;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.checkpoint.PeftAdapter;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsWriter;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.graph.Autodiff;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.model.HfFixture;
import dev.javelin.backend.model.LoraConfig;
import dev.javelin.backend.model.ModelConfig;
import dev.javelin.backend.testing.RelError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parity with PEFT on qwen2-tiny with a LoRA adapter on all seven linear layers and a non-zero B
 * (tools/peft_fixtures.py): logits to 1e-4 relative error, the gradients of every A and B to 1e-3.
 */
class PeftParityTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ref", "cpu"})
  void logitsMatchPeft(String device) {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    PeftAdapter adapter = PeftAdapter.load(dir(), fx.config());
    assertEquals(new LoraConfig(4, 8, Set.copyOf(LoraConfig.MODULES)), adapter.lora());
    Map<String, Tensor> rec = recorded();
    GraphBuilder g = new GraphBuilder("peft_forward");
    ModelConfig c = fx.config();
    ModelPrograms.Inputs in =
        ModelPrograms.declare(
            g, c, fx.batch(), fx.length(), fx.length(), DType.F32, adapter.lora());
    Program p = g.build(ModelPrograms.forwardLogits(g, c, in));
    try (Device d = Devices.open(device)) {
      Tensor logits = HfFixture.run(d, p, inputs(fx, adapter)).get(0);
      RelError.assertClose("logits", rec.get("logits"), logits, fx.validTokens(), 1e-4);
      if (device.equals("cpu")) {
        // For tools/peft_fixtures.py --check: the adapter as Javelin writes it, and its logits.
        Path out = Path.of(System.getProperty("javelin.root"), "tpu-backend/target/peft-roundtrip");
        adapter.save(out, null);
        SafetensorsWriter.write(
            out.resolve("logits.safetensors"), Map.of("logits", logits), StorageType.F32);
        PeftAdapter back = PeftAdapter.load(out, c);
        assertEquals(adapter.lora(), back.lora());
        adapter
            .tensors()
            .forEach((k, t) -> assertArrayEquals(t.data(), back.tensors().get(k).data(), 0f, k));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"ref", "cpu"})
  void adapterGradientsMatchPeft(String device) {
    HfFixture fx = HfFixture.load("qwen2-tiny");
    PeftAdapter adapter = PeftAdapter.load(dir(), fx.config());
    Map<String, Tensor> rec = recorded();
    ModelConfig c = fx.config();
    GraphBuilder g = new GraphBuilder("peft_grad");
    ModelPrograms.Inputs in =
        ModelPrograms.declare(
            g, c, fx.batch(), fx.length(), fx.length(), DType.F32, adapter.lora());
    Node temp = g.parameter(ModelPrograms.TEMPERATURE, DType.F32, Shape.scalar());
    Node resp = g.parameter("response_mask", DType.F32, Shape.of(fx.batch(), fx.length() - 1));
    TokenStats st = TokenStats.of(g, ModelPrograms.forwardLogits(g, c, in), in.ids(), temp);
    // loss = Σ mask · (-logp + c·H) / Σ mask, as tools/peft_fixtures.py records it
    Node perToken =
        g.add(g.neg(st.logp()), g.mul(st.entropy(), g.full(st.entropy(), fx.scalar("ent_coef"))));
    Node loss = g.div(g.reduceSum(g.mul(resp, perToken), 0, 1), g.reduceSum(resp, 0, 1));
    Map<String, Node> ab = in.weights().adapterParameters();
    List<Node> outs = new ArrayList<>();
    outs.add(loss);
    outs.addAll(Autodiff.gradient(g, loss, new ArrayList<>(ab.values())));
    Map<String, Tensor> args = inputs(fx, adapter);
    args.put(ModelPrograms.TEMPERATURE, Tensor.scalar(fx.scalar("temperature")));
    args.put("response_mask", fx.get("response_mask"));
    try (Device d = Devices.open(device)) {
      List<Tensor> out = HfFixture.run(d, g.build(outs), args);
      assertEquals(rec.get("loss").getDouble(0), out.get(0).getDouble(0), 1e-4 * 5.7);
      List<String> names = new ArrayList<>(ab.keySet());
      assertEquals(2 * 7 * c.layers(), names.size());
      for (int i = 0; i < names.size(); i++) {
        String n = names.get(i);
        RelError.assertClose("grad " + n, rec.get("grad." + n), out.get(i + 1), 1e-3);
      }
    }
  }

  private static Path dir() {
    return Path.of(System.getProperty("javelin.root"), "tpu-backend/src/test/resources/hf")
        .resolve("qwen2-tiny-lora");
  }

  private static Map<String, Tensor> recorded() {
    Map<String, Tensor> rec = new HashMap<>();
    try (SafetensorsFile f = SafetensorsFile.open(dir().resolve("fixture.safetensors"))) {
      for (String n : f.tensors().keySet()) {
        rec.put(n, f.read(n));
      }
    }
    return rec;
  }

  private static Map<String, Tensor> inputs(HfFixture fx, PeftAdapter adapter) {
    Map<String, Tensor> in = fx.inputs();
    in.putAll(adapter.tensors());
    return in;
  }
}
