package dev.javelin.backend.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.checkpoint.ModelCheckpoint;
import dev.javelin.backend.checkpoint.safetensors.SafetensorsFile;
import dev.javelin.backend.checkpoint.safetensors.StorageType;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.program.Bindings;
import dev.javelin.backend.program.ModelPrograms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A tiny HF model and the outputs transformers recorded for it (see tools/hf_fixtures.py). */
public record HfFixture(ModelCheckpoint checkpoint, Map<String, Tensor> recorded) {

  public static HfFixture load(String name) {
    String root = System.getProperty("javelin.root");
    if (root == null) {
      fail("system property javelin.root is not set (surefire sets it to the repo root)");
    }
    Path dir = Path.of(root, "tpu-backend/src/test/resources/hf", name);
    if (!Files.isDirectory(dir)) {
      fail("missing HF fixture " + dir + "; regenerate with .venv/bin/python tools/hf_fixtures.py");
    }
    Map<String, Tensor> rec = new HashMap<>();
    try (SafetensorsFile f = SafetensorsFile.open(dir.resolve("fixture.safetensors"))) {
      for (String n : f.tensors().keySet()) {
        rec.put(n, f.read(n));
      }
    }
    return new HfFixture(ModelCheckpoint.load(dir), rec);
  }

  public ModelConfig config() {
    return checkpoint.config();
  }

  public Tensor get(String name) {
    Tensor t = recorded.get(name);
    if (t == null) {
      fail("fixture lacks '" + name + "'");
    }
    return t;
  }

  public Tensor.I32 ids() {
    return (Tensor.I32) get("input_ids");
  }

  public int batch() {
    return ids().shape().dim(0);
  }

  public int length() {
    return ids().shape().dim(1);
  }

  public float scalar(String name) {
    return ((Tensor.F32) get(name)).data()[0];
  }

  /** Weights, token inputs (positions 0..T-1) and rotary tables, by parameter name. */
  public Map<String, Tensor> inputs() {
    Map<String, Tensor> in = new LinkedHashMap<>(checkpoint.ordered());
    in.put(ModelPrograms.INPUT_IDS, ids());
    in.put(ModelPrograms.POSITIONS, positions(batch(), length()));
    in.put(ModelPrograms.ATTENTION_MASK, get("attention_mask"));
    RopeTable rope = RopeTable.compute(config(), length());
    in.put(ModelPrograms.ROPE_COS, rope.cos());
    in.put(ModelPrograms.ROPE_SIN, rope.sin());
    return in;
  }

  /** (B, T, V) selection of positions inside each row (attention_mask). */
  public boolean[] validTokens() {
    Tensor mask = get("attention_mask");
    int v = config().vocabSize();
    boolean[] keep = new boolean[mask.shape().intSize() * v];
    for (int i = 0; i < keep.length; i++) {
      keep[i] = mask.getDouble(i / v) > 0.5;
    }
    return keep;
  }

  public static Tensor.I32 positions(int b, int t) {
    int[] p = new int[b * t];
    for (int i = 0; i < p.length; i++) {
      p[i] = i % t;
    }
    return new Tensor.I32(Shape.of(b, t), p);
  }

  /**
   * Writes {@code ck} as an HF directory of its own {@code model_type} into {@code dir} and checks
   * that it loads back as itself: the same config, every weight bit-identical.
   */
  public static void assertWrittenBackAsItself(ModelCheckpoint ck, Path dir) {
    ck.save(dir, ck.config().architecture().modelType(), StorageType.F32);
    ModelCheckpoint back = ModelCheckpoint.load(dir);
    assertEquals(ck.config(), back.config());
    for (WeightSpec s : WeightSpec.layout(ck.config())) {
      assertArrayEquals(
          ck.weights().get(s.name()).data(), back.weights().get(s.name()).data(), s.name());
    }
  }

  /** Uploads named inputs, runs the program and downloads its outputs. */
  public static List<Tensor> run(Device device, Program program, Map<String, Tensor> named) {
    Map<String, DeviceBuffer> bufs = new HashMap<>();
    named.forEach((k, v) -> bufs.put(k, device.upload(v)));
    List<Tensor> out = new ArrayList<>();
    for (DeviceBuffer b : device.compile(program).run(Bindings.bind(program, bufs))) {
      out.add(b.toHost());
      b.close();
    }
    bufs.values().forEach(DeviceBuffer::close);
    return out;
  }
}
