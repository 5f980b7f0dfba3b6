package dev.javelin.backend.xla;

import dev.javelin.backend.Bf16;
import dev.javelin.backend.DType;
import dev.javelin.backend.Device;
import dev.javelin.backend.DeviceBuffer;
import dev.javelin.backend.Donation;
import dev.javelin.backend.Executable;
import dev.javelin.backend.Shape;
import dev.javelin.backend.Tensor;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.spmd.Mesh;
import dev.javelin.backend.spmd.ProgramSharding;
import dev.javelin.backend.spmd.Sharding;
import dev.javelin.backend.stablehlo.StableHloPrinter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * A device behind a PJRT plugin ({@code xla:cpu}, {@code xla:gpu}, {@code tpu}): programs are
 * printed as StableHLO text and compiled by the plugin; buffers stay on the device between runs.
 * The device is bound to a set of the client's chips ({@link #chips()}: every addressable one, or
 * those a spec such as {@code tpu@4-7} names, see {@link ChipSpec}). A program without a sharding
 * is compiled for and runs on the first bound chip, where {@link #upload(Tensor)} puts its
 * arguments; a program with one ({@link Program#withSharding}) is partitioned by XLA's SPMD
 * partitioner over its mesh, which may use bound chips only, and takes and returns {@link
 * ShardedBuffer}s. Closing frees every buffer and executable still open, then gives back the
 * plugin's shared client.
 */
public final class XlaDevice implements Device {
  private static final Logger LOG = Logger.getLogger(XlaDevice.class.getName());

  private final String name;
  private final PjrtPlugin plugin;
  private final String platform;
  private final PjrtClient shared;
  private final long client;
  private final List<Integer> chips;
  private final long device;
  private final CompileCache cache;
  private final Set<AutoCloseable> live = Collections.newSetFromMap(new IdentityHashMap<>());
  private Transfers transfers = new Transfers(0, 0, 0, 0);
  private boolean closed;

  private XlaDevice(
      String name, PjrtPlugin plugin, PjrtClient client, List<Integer> chips, CompileCache cache) {
    this.name = name;
    this.cache = cache;
    this.plugin = plugin;
    this.shared = client;
    this.client = client.handle();
    this.chips = List.copyOf(chips);
    this.device = client.device(this.chips.get(0));
    this.platform = client.platform();
  }

  /** Opens with the default compile cache folder ({@link CompileCache#defaultDir()}). */
  public static XlaDevice open(String spec, PjrtPlugin plugin) {
    return open(spec, plugin, CompileCache.defaultDir());
  }

  /**
   * Binds the chips {@code spec} names ({@link ChipSpec}; all addressable ones without {@code @})
   * of the plugin's client, which is shared by every device opened on that plugin in this process
   * (see {@link PjrtClient}). A chip the client lacks is one line naming the spec and its chips.
   *
   * @param cacheDir where serialized executables are kept between runs; empty for memory only
   */
  public static XlaDevice open(String spec, PjrtPlugin plugin, Optional<Path> cacheDir) {
    ChipSpec parsed = ChipSpec.parse(spec);
    PjrtClient client = PjrtClient.acquire(plugin, spec);
    try {
      List<Integer> all = Arrays.stream(client.deviceIds()).mapToObj(id -> (int) id).toList();
      List<Integer> chips = parsed.chips().orElse(all);
      for (int chip : chips) {
        if (!all.contains(chip)) {
          throw new IllegalArgumentException(
              "device spec '"
                  + spec
                  + "': chip "
                  + chip
                  + " is not one of this host's "
                  + client.platform()
                  + " chips "
                  + all
                  + (client.platform().equals("cpu")
                      ? " (more CPU devices: -D" + PjrtClient.CPU_DEVICES_PROPERTY + "=N)"
                      : ""));
        }
      }
      LOG.info(
          () ->
              "opened "
                  + spec
                  + " on platform "
                  + client.platform()
                  + " (chips "
                  + chips
                  + " of "
                  + client.deviceCount()
                  + ", PJRT "
                  + plugin.version()
                  + ")");
      String pluginId =
          client.platform()
              + " "
              + client.platformVersion()
              + " pjrt "
              + plugin.version()
              + " "
              + plugin.path().getFileName();
      return new XlaDevice(spec, plugin, client, chips, new CompileCache(cacheDir, pluginId));
    } catch (RuntimeException e) {
      client.release();
      throw e;
    }
  }

  @Override
  public String name() {
    return name;
  }

  /** The plugin's platform name, e.g. {@code cpu}. */
  public String platform() {
    return platform;
  }

  public PjrtPlugin plugin() {
    return plugin;
  }

  long api() {
    return plugin.api();
  }

  @Override
  public Executable compile(Program program) {
    return compile(program, Donation.none());
  }

  /**
   * Compiles with input/output aliasing: each donated argument is updated in place and consumed
   * (closed) by every run.
   */
  @Override
  public synchronized Executable compile(Program program, Donation donation) {
    checkOpen();
    donation.validate(program);
    Optional<ProgramSharding> sharding = program.sharding();
    sharding.ifPresent(s -> checkPartitioned(program, s, donation));
    String module = AliasAnnotation.annotate(StableHloPrinter.print(program), program, donation);
    byte[] text = module.getBytes(StandardCharsets.UTF_8);
    byte[] options =
        sharding
            .map(s -> CompileOptions.partitioned(s.mesh().deviceIds()))
            .orElseGet(() -> CompileOptions.singleDevice(chips.get(0)));
    String key = cache.key(text, options);
    long handle;
    synchronized (CompileCache.lockFor(key)) {
      handle = loadCached(program, key).orElseGet(() -> compileFresh(program, text, options, key));
    }
    Executable exe;
    try {
      exe =
          sharding.isPresent()
              ? new PartitionedExecutable(this, program, sharding.get(), handle, donation)
              : new XlaExecutable(this, program, handle, donation);
    } catch (RuntimeException e) {
      PjrtNative.executableDestroy(api(), handle);
      throw e;
    }
    live.add(exe);
    long outputs;
    try {
      outputs = PjrtNative.numOutputs(api(), handle);
    } catch (RuntimeException e) {
      exe.close();
      throw e;
    }
    if (outputs != program.outputs().size()) {
      exe.close();
      throw new IllegalStateException(
          "PJRT compiled "
              + program.name()
              + " to "
              + outputs
              + " outputs but the program has "
              + program.outputs().size());
    }
    return exe;
  }

  /**
   * Every mesh device must be one of our chips, and a donated argument keeps its sharding in the
   * output.
   */
  private void checkPartitioned(Program program, ProgramSharding s, Donation donation) {
    checkMesh(s.mesh());
    donation
        .aliases()
        .forEach(
            (p, o) -> {
              if (!s.parameters().get(p).equals(s.outputs().get(o))) {
                throw new IllegalArgumentException(
                    "cannot donate parameter "
                        + p
                        + " of "
                        + program.name()
                        + " (sharded "
                        + s.parameters().get(p)
                        + ") to output "
                        + o
                        + " (sharded "
                        + s.outputs().get(o)
                        + ")");
              }
            });
  }

  /** Compile-cache hits and misses so far (memory or disk). */
  public int cacheHits() {
    return cache.hits();
  }

  public int cacheMisses() {
    return cache.misses();
  }

  private Optional<Long> loadCached(Program program, String key) {
    Optional<byte[]> bytes = cache.get(key);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    long start = System.nanoTime();
    try {
      long handle = PjrtNative.deserializeAndLoad(api(), client, bytes.get());
      long ms = (System.nanoTime() - start) / 1_000_000;
      LOG.info(() -> "loaded " + program.name() + " on " + name + " from cache in " + ms + " ms");
      return Optional.of(handle);
    } catch (PjrtException e) {
      LOG.warning(() -> "stale compile cache entry for " + program.name() + ": " + e.getMessage());
      cache.evict(key);
      return Optional.empty();
    }
  }

  private long compileFresh(Program program, byte[] text, byte[] options, String key) {
    long start = System.nanoTime();
    long handle = PjrtNative.compile(api(), client, text, options);
    long ms = (System.nanoTime() - start) / 1_000_000;
    LOG.info(() -> "compiled " + program.name() + " on " + name + " in " + ms + " ms");
    try {
      cache.put(key, PjrtNative.serialize(api(), handle));
    } catch (PjrtException e) {
      // A plugin that cannot serialize still runs; it just compiles every time.
      LOG.info(() -> "not caching " + program.name() + ": " + e.getMessage());
    }
    return handle;
  }

  /** Uploads to the first bound chip, where unsharded programs run. */
  @Override
  public synchronized DeviceBuffer upload(Tensor tensor) {
    return uploadTo(device, tensor);
  }

  /**
   * Uploads {@code tensor} split by {@code sharding}: each mesh device receives its block
   * (replicated blocks are sent to every device that holds them).
   */
  @Override
  public ShardedBuffer upload(Tensor tensor, Mesh mesh, Sharding sharding) {
    checkMesh(mesh);
    return ShardedBuffer.upload(this, tensor, mesh, sharding);
  }

  /**
   * The PJRT ids of the plugin's addressable devices, bound to this device or not (mesh device ids
   * refer to these).
   */
  public List<Integer> deviceIds() {
    return Arrays.stream(shared.deviceIds()).mapToObj(id -> (int) id).toList();
  }

  /**
   * The PJRT ids of the chips this device is bound to, in spec order; unsharded programs and
   * uploads use the first, meshes may use any of them.
   */
  @Override
  public List<Integer> chips() {
    return chips;
  }

  @Override
  public boolean partitionsOverMeshes() {
    return true;
  }

  /** A mesh over chips this device is not bound to is an error naming both. */
  private void checkMesh(Mesh mesh) {
    for (int id : mesh.deviceIds()) {
      if (!chips.contains(id)) {
        throw new IllegalArgumentException(
            "mesh "
                + mesh
                + " uses chip "
                + id
                + ", which device "
                + name
                + " is not bound to (its chips: "
                + chips
                + ")");
      }
    }
  }

  synchronized XlaBuffer uploadTo(long deviceHandle, Tensor tensor) {
    checkOpen();
    Object data;
    if (tensor instanceof Tensor.F32 f) {
      data = f.data();
    } else if (tensor instanceof Tensor.BF16 b) {
      data = Bf16.toBits(b.data()); // the host keeps rounded floats, the device 16-bit values
    } else if (tensor instanceof Tensor.F64 d) {
      data = d.data();
    } else if (tensor instanceof Tensor.I32 i) {
      data = i.data();
    } else {
      data = ((Tensor.Pred) tensor).data(); // JNI jboolean is one byte 0/1, like PRED
    }
    int[] dims = tensor.shape().dims();
    long[] ldims = new long[dims.length];
    for (int i = 0; i < dims.length; i++) {
      ldims[i] = dims[i];
    }
    long handle =
        PjrtNative.bufferFromHost(
            api(), client, deviceHandle, data, XlaDType.pjrtType(tensor.dtype()), ldims);
    transfers = transfers.plusUpload(tensor.shape().size() * tensor.dtype().byteSize());
    return adopt(handle, tensor.shape(), tensor.dtype());
  }

  PjrtClient client() {
    return shared;
  }

  /** Host↔device traffic since this device opened. */
  public synchronized Transfers transfers() {
    return transfers;
  }

  synchronized void countDownload(long bytes) {
    transfers = transfers.plusDownload(bytes);
  }

  synchronized XlaBuffer adopt(long handle, Shape shape, DType dtype) {
    XlaBuffer b = new XlaBuffer(this, handle, shape, dtype);
    live.add(b);
    return b;
  }

  synchronized void release(AutoCloseable resource) {
    live.remove(resource);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("device " + name + " is closed");
    }
  }

  @Override
  public void close() {
    List<AutoCloseable> open;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      open = new ArrayList<>(live);
    }
    for (AutoCloseable r : open) {
      try {
        r.close();
      } catch (Exception e) {
        LOG.warning(() -> "freeing " + r + " on close failed: " + e.getMessage());
      }
    }
    shared.release();
  }
}
