package dev.javelin.backend.xla;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the PJRT plugin for a device spec: first the explicit {@code JAVELIN_PJRT_PLUGIN} path,
 * then plugins shipped by Python packages in the known virtualenvs ({@code libtpu}, {@code
 * jax-cuda12/13-pjrt}, a CPU plugin package). Every place tried is recorded for the error message.
 */
final class PluginDiscovery {
  static final String ENV_PLUGIN = "JAVELIN_PJRT_PLUGIN";

  /** The library paths, relative to a site-packages directory, that serve each spec. */
  private static final Map<String, List<String>> PACKAGED =
      Map.of(
          "tpu", List.of("libtpu/libtpu.so"),
          "xla:gpu",
              List.of(
                  "jax_plugins/xla_cuda12/xla_cuda_plugin.so",
                  "jax_plugins/xla_cuda13/xla_cuda_plugin.so"),
          "xla:cpu",
              List.of(
                  "xla_plugins/xla_cpu_pjrt/xla_cpu_pjrt.so",
                  "fastatomstruct_xla_cpu/libpjrt_cpu.so",
                  "lammps_jax_pjrt_cpu/pjrt_c_api_cpu_plugin.so"));

  /** The outcome: the plugin found, or none, and everything tried either way. */
  record Result(Optional<Path> plugin, List<String> tried) {
    String describe(String spec) {
      return "no PJRT plugin for '"
          + spec
          + "'; tried: "
          + String.join("; ", tried)
          + ". Set "
          + ENV_PLUGIN
          + "=/path/to/plugin.so or install the plugin package into .venv"
          + " (tools/setup/venv.sh tools/requirements/pjrt-cpu.txt for xla:cpu)";
    }
  }

  private final Map<String, String> env;
  private final List<Path> venvs;

  PluginDiscovery(Map<String, String> env, List<Path> venvs) {
    this.env = Map.copyOf(env);
    this.venvs = List.copyOf(venvs);
  }

  /** Discovery from this process: its environment, {@code javelin.root}/.venv, ./.venv. */
  static PluginDiscovery fromProcess() {
    Set<Path> venvs = new LinkedHashSet<>();
    String venv = System.getenv("VIRTUAL_ENV");
    if (venv != null) {
      venvs.add(Path.of(venv));
    }
    String root = System.getProperty("javelin.root");
    if (root != null) {
      venvs.add(Path.of(root, ".venv"));
    }
    venvs.add(Path.of(".venv").toAbsolutePath());
    venvs.add(Path.of("..", ".venv").toAbsolutePath().normalize());
    return new PluginDiscovery(System.getenv(), new ArrayList<>(venvs));
  }

  static boolean supports(String spec) {
    return PACKAGED.containsKey(ChipSpec.pluginOf(spec));
  }

  Result find(String spec) {
    List<String> tried = new ArrayList<>();
    String explicit = env.get(ENV_PLUGIN);
    if (explicit != null && !explicit.isBlank()) {
      Path p = Path.of(explicit);
      if (Files.isRegularFile(p)) {
        return new Result(Optional.of(p), tried);
      }
      tried.add(ENV_PLUGIN + "=" + explicit + " (no such file)");
    } else {
      tried.add(ENV_PLUGIN + " (unset)");
    }
    for (Path sitePackages : sitePackages(tried)) {
      for (String rel : PACKAGED.getOrDefault(ChipSpec.pluginOf(spec), List.of())) {
        Path p = sitePackages.resolve(rel);
        if (Files.isRegularFile(p)) {
          return new Result(Optional.of(p), tried);
        }
        tried.add(p.toString());
      }
    }
    return new Result(Optional.empty(), tried);
  }

  private List<Path> sitePackages(List<String> tried) {
    List<Path> out = new ArrayList<>();
    for (Path venv : venvs) {
      Path lib = venv.resolve("lib");
      if (!Files.isDirectory(lib)) {
        tried.add(venv + " (no virtualenv)");
        continue;
      }
      try (DirectoryStream<Path> pythons = Files.newDirectoryStream(lib, "python*")) {
        for (Path py : pythons) {
          Path sp = py.resolve("site-packages");
          if (Files.isDirectory(sp)) {
            out.add(sp);
          }
        }
      } catch (IOException e) {
        tried.add(lib + " (" + e.getMessage() + ")");
      }
    }
    return out;
  }
}
