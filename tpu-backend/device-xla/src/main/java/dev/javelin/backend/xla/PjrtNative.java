package dev.javelin.backend.xla;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The JNI entry points of the PJRT shim ({@code src/main/native/xla/pjrt_jni.c}, built by {@code
 * tools/setup/pjrt-shim.sh}). Handles are raw native pointers as {@code long}; {@link PjrtPlugin},
 * {@link XlaDevice} and friends own them. Every call throws {@link PjrtException} with the plugin's
 * message on failure.
 */
final class PjrtNative {
  static final String RESOURCE = "/dev/javelin/backend/xla/linux-x86_64/libjavelin_pjrt.so";

  private static volatile Optional<String> loadFailure;

  private PjrtNative() {}

  /** Loads the shim once; empty when loaded, otherwise why it could not be. */
  static synchronized Optional<String> load() {
    if (loadFailure != null) {
      return loadFailure;
    }
    loadFailure = tryLoad();
    return loadFailure;
  }

  private static Optional<String> tryLoad() {
    try (InputStream in = PjrtNative.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return Optional.of(
            "the PJRT JNI shim "
                + RESOURCE
                + " is not on the class path (built by tools/setup/pjrt-shim.sh during the"
                + " tpu-backend build)");
      }
      Path tmp = Files.createTempFile("javelin_pjrt", ".so");
      tmp.toFile().deleteOnExit();
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      System.load(tmp.toString());
      return Optional.empty();
    } catch (IOException | UnsatisfiedLinkError e) {
      return Optional.of("cannot load the PJRT JNI shim: " + e.getMessage());
    }
  }

  static native int headerMajorVersion();

  static native int headerMinorVersion();

  static native long loadPlugin(String path);

  /** {struct_size, major, minor} of the plugin's API table. */
  static native long[] apiVersion(long api);

  static native void pluginInitialize(long api);

  static native long clientCreate(long api, String[] optionNames, long[] optionValues);

  static native void clientDestroy(long api, long client);

  /** Fills {@code out}, a {@code String[2]}, with the platform's name and version. */
  static native void platform(long api, long client, String[] out);

  static native long[] addressableDevices(long api, long client);

  static native long compile(long api, long client, byte[] mlirText, byte[] compileOptions);

  static native long numOutputs(long api, long loadedExecutable);

  static native void executableDestroy(long api, long loadedExecutable);

  /**
   * {@code data} is a float[], int[], double[], short[] (bf16 bits) or boolean[] matching {@code
   * type} and dims.
   */
  static native long bufferFromHost(
      long api, long client, long device, Object data, int type, long[] dims);

  static native void bufferDestroy(long api, long buffer);

  static native void bufferToHost(long api, long buffer, Object dst, long dstBytes);

  /**
   * Runs on {@code numDevices} devices, one partition each in the order of {@link
   * #executableDevices}: {@code arguments} holds every device's argument list, device-major; the
   * result holds every device's outputs, device-major.
   */
  static native long[] execute(
      long api, long loadedExecutable, long[] arguments, int numDevices, int numOutputs);

  /** The PJRT device ids of device handles. */
  static native long[] deviceIds(long api, long[] devices);

  /** The devices a loaded executable runs on, in the order execute takes argument lists. */
  static native long[] executableDevices(long api, long loadedExecutable);

  /** The device handle a buffer lives on. */
  static native long bufferDevice(long api, long buffer);

  /** Bytes a buffer occupies on its device. */
  static native long bufferOnDeviceSize(long api, long buffer);

  /** The plugin's serialized form of a loaded executable, for the on-disk compile cache. */
  static native byte[] serialize(long api, long loadedExecutable);

  static native long deserializeAndLoad(long api, long client, byte[] serialized);

  /**
   * Sets {@code name=value} in the process environment that native code (the plugin) reads; {@link
   * System#getenv} keeps its start-up view.
   */
  static native void setenv(String name, String value);

  /** The device address behind a buffer (PJRT_Buffer_UnsafePointer). */
  static native long bufferDeviceAddress(long api, long buffer);

  /** The plugin's description of a named topology ({@code v5e:2x4}); no client, no chips. */
  static native long topologyCreate(long api, String name);

  static native void topologyDestroy(long api, long topology);

  /** The PJRT ids of a topology's devices; {@code kind[0]} receives the first device's kind. */
  static native long[] topologyDevices(long api, long topology, String[] kind);

  /** Compiles for a topology (PJRT_Compile); returns an unloaded {@code PJRT_Executable*}. */
  static native long compileForTopology(
      long api, long topology, byte[] mlirText, byte[] compileOptions);

  static native void unloadedExecutableDestroy(long api, long executable);

  /** {generated code, argument, output, alias, temp} bytes per device. */
  static native long[] compiledMemoryStats(long api, long executable);

  /** XLA's cost analysis as "name\tvalue\n" lines. */
  static native String costAnalysis(long api, long executable);
}
