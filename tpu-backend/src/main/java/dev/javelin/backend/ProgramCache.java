package dev.javelin.backend;

import dev.javelin.backend.graph.Node;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Compiled programs of one device, keyed by program name and argument types and shapes, so each
 * shape bucket is built and compiled once. Callers put every other thing that changes the program
 * (temperature, loss variant) into the name. Thread-safe; closing closes every executable.
 */
public final class ProgramCache implements AutoCloseable {
  private final Device device;
  private final Map<Key, Executable> compiled = new ConcurrentHashMap<>();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  public ProgramCache(Device device) {
    this.device = device;
  }

  /** One argument's element type and shape. */
  public record ArgSpec(DType dtype, Shape shape) {
    public static ArgSpec of(DeviceBuffer b) {
      return new ArgSpec(b.dtype(), b.shape());
    }

    public static ArgSpec of(Node parameter) {
      return new ArgSpec(parameter.dtype(), parameter.shape());
    }
  }

  /** The cache key: a program name and its argument specs in parameter order. */
  public record Key(String name, List<ArgSpec> arguments) {
    public Key {
      arguments = List.copyOf(arguments);
    }
  }

  /**
   * The executable for {@code key}, building and compiling it on first use.
   *
   * @param build makes the program; its parameters must match {@code key.arguments()}
   */
  public Executable get(Key key, Supplier<Program> build) {
    Executable hit = compiled.get(key);
    if (hit != null) {
      hits.incrementAndGet();
      return hit;
    }
    return compiled.computeIfAbsent(
        key,
        k -> {
          misses.incrementAndGet();
          Program p = build.get();
          checkMatches(k, p);
          return device.compile(p);
        });
  }

  /** The executable for a program named {@code name} run on exactly these arguments. */
  public Executable get(
      String name, List<? extends DeviceBuffer> arguments, Supplier<Program> build) {
    List<ArgSpec> specs = new ArrayList<>(arguments.size());
    for (DeviceBuffer b : arguments) {
      specs.add(ArgSpec.of(b));
    }
    return get(new Key(name, specs), build);
  }

  private static void checkMatches(Key key, Program p) {
    List<ArgSpec> actual = new ArrayList<>();
    for (Node param : p.parameters()) {
      actual.add(ArgSpec.of(param));
    }
    if (!actual.equals(key.arguments())) {
      throw new IllegalStateException(
          "program '"
              + p.name()
              + "' built for key '"
              + key.name()
              + "' takes "
              + actual
              + " but the key says "
              + key.arguments());
    }
  }

  /** Number of compiled programs held. */
  public int size() {
    return compiled.size();
  }

  public long hits() {
    return hits.get();
  }

  public long misses() {
    return misses.get();
  }

  @Override
  public void close() {
    for (Executable e : compiled.values()) {
      e.close();
    }
    compiled.clear();
  }
}
