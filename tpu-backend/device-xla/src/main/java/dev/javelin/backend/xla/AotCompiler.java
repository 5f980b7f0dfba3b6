package dev.javelin.backend.xla;

import dev.javelin.backend.Donation;
import dev.javelin.backend.graph.Program;
import dev.javelin.backend.stablehlo.StableHloPrinter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles programs ahead of time for a {@link TpuTopology} with libtpu and no TPU attached: the
 * PJRT C API's {@code PJRT_Compile} takes a topology description instead of a client, and the
 * unloaded executable it returns reports XLA's per-chip memory statistics and cost analysis.
 * Nothing runs. The plugin is found and loaded as {@code --device tpu} does ({@link
 * PluginDiscovery}, {@link PjrtPlugin}).
 *
 * <p>A sharded program's mesh positions map onto the topology's device ids in ascending order:
 * position {@code p} compiles for device id {@code p} (the mesh's own device ids are not used, so a
 * mesh built over chips 0..n-1 and one over a sampler's chips 4..7 compile alike). Ascending, not
 * the order libtpu lists its devices in: a slice of several hosts (v5e-16: four hosts of 2x2 chips)
 * lists each host's chips together (ids 0, 1, 4, 5, then 2, 3, 6, 7, ...), and libtpu compiles an
 * n-chip program only for device ids below n ("Unexpected device_id 4 ... target has 4 device_id"
 * for a program over one host's 0, 1, 4, 5; JAX's compile-only client fails alike).
 */
public final class AotCompiler implements AutoCloseable {
  private static final String SKIP_METADATA = "TPU_SKIP_MDS_QUERY";
  private static final String MULTIPLE_LOADS = "ALLOW_MULTIPLE_LIBTPU_LOAD";

  private final PjrtPlugin plugin;
  private final TpuTopology topology;
  private final long handle;
  private final List<Integer> deviceIds;
  private final String deviceKind;

  private AotCompiler(PjrtPlugin plugin, TpuTopology topology, long handle) {
    this.plugin = plugin;
    this.topology = topology;
    this.handle = handle;
    String[] kind = new String[1];
    long[] ids = PjrtNative.topologyDevices(plugin.api(), handle, kind);
    this.deviceIds = new ArrayList<>();
    for (long id : ids) {
      deviceIds.add(Math.toIntExact(id));
    }
    deviceIds.sort(null);
    this.deviceKind = kind[0] == null ? "" : kind[0];
  }

  /**
   * Opens a compiler for {@code topology} with the libtpu found in the usual places (see {@link
   * PluginDiscovery}); fails with one line when libtpu is missing or does not know the topology.
   */
  public static AotCompiler open(TpuTopology topology) {
    PluginDiscovery.Result found = PluginDiscovery.fromProcess().find("tpu");
    if (found.plugin().isEmpty()) {
      throw new IllegalStateException(
          found.describe("tpu") + " (tools/setup/venv.sh tools/requirements/libtpu.txt for tpu)");
    }
    PjrtNative.load()
        .ifPresent(
            why -> {
              throw new IllegalStateException(why);
            });
    if (noTpuChips()) {
      // as JAX does without chips: else libtpu's initialisation waits on the GCE metadata server
      PjrtNative.setenv(SKIP_METADATA, "1");
      // compiling needs no chips to guard: let other compiling processes load libtpu at once
      PjrtNative.setenv(MULTIPLE_LOADS, "1");
    }
    PjrtPlugin plugin = PjrtPlugin.load(found.plugin().get());
    long handle;
    try {
      handle = PjrtNative.topologyCreate(plugin.api(), topology.pjrtName());
    } catch (PjrtException e) {
      throw new IllegalArgumentException(
          "libtpu does not know the topology '" + topology.pjrtName() + "': " + firstLine(e));
    }
    AotCompiler c = new AotCompiler(plugin, topology, handle);
    if (c.deviceIds.size() != topology.chips()) {
      c.close();
      throw new IllegalStateException(
          "libtpu's "
              + topology.pjrtName()
              + " has "
              + c.deviceIds.size()
              + " chips, expected "
              + topology.chips());
    }
    return c;
  }

  public TpuTopology topology() {
    return topology;
  }

  /** libtpu's name for the chips ({@code TPU v5 lite}). */
  public String deviceKind() {
    return deviceKind;
  }

  /**
   * Compiles {@code program} as {@link XlaDevice#compile(Program, Donation)} would on the chips.
   */
  public CompiledStats compile(Program program, Donation donation) {
    String text = moduleText(program, donation);
    int partitions = program.sharding().map(s -> s.mesh().size()).orElse(1);
    return compile(text, partitions);
  }

  /**
   * The StableHLO text {@link #compile(Program, Donation)} compiles (as {@link XlaDevice} does).
   */
  public static String moduleText(Program program, Donation donation) {
    return AliasAnnotation.annotate(StableHloPrinter.print(program), program, donation);
  }

  /**
   * Compiles StableHLO text over the topology's device ids 0..{@code partitions}-1 (one SPMD
   * partition each; one partition: an unsharded program). libtpu's refusal is a {@link
   * PjrtException}.
   */
  public CompiledStats compile(String moduleText, int partitions) {
    if (partitions < 1 || partitions > deviceIds.size()) {
      throw new IllegalArgumentException(
          "a program of "
              + partitions
              + " partitions does not fit "
              + topology.name()
              + " ("
              + deviceIds.size()
              + " chips)");
    }
    List<Integer> ids = deviceIds.subList(0, partitions);
    byte[] options =
        partitions == 1 ? CompileOptions.singleDevice(ids.get(0)) : CompileOptions.partitioned(ids);
    long start = System.nanoTime();
    long exe =
        PjrtNative.compileForTopology(
            plugin.api(), handle, moduleText.getBytes(StandardCharsets.UTF_8), options);
    double seconds = (System.nanoTime() - start) / 1e9;
    try {
      return CompiledStats.of(
          PjrtNative.compiledMemoryStats(plugin.api(), exe),
          parseCost(PjrtNative.costAnalysis(plugin.api(), exe)),
          seconds);
    } finally {
      PjrtNative.unloadedExecutableDestroy(plugin.api(), exe);
    }
  }

  static Map<String, Double> parseCost(String lines) {
    Map<String, Double> out = new HashMap<>();
    for (String line : lines.split("\n", -1)) {
      int tab = line.indexOf('\t');
      if (tab > 0) {
        out.put(line.substring(0, tab), Double.parseDouble(line.substring(tab + 1)));
      }
    }
    return out;
  }

  /** No TPU device node (/dev/accel* on v4/v5p, /dev/vfio/* on v5e/v6e) and no explicit choice. */
  private static boolean noTpuChips() {
    if (System.getenv(SKIP_METADATA) != null) {
      return false;
    }
    return !Files.exists(Path.of("/dev/accel0")) && !Files.exists(Path.of("/dev/vfio/0"));
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  @Override
  public void close() {
    PjrtNative.topologyDestroy(plugin.api(), handle);
  }
}
