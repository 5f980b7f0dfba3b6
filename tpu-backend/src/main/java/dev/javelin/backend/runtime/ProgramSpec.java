package dev.javelin.backend.runtime;

import dev.javelin.backend.Donation;
import dev.javelin.backend.graph.Program;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A program a model compiles once and caches: its cache key, how to build it, which arguments its
 * runs donate, and on a mesh how its outputs and parameters lie ({@link
 * dev.javelin.backend.program.ShardPlan#program}).
 *
 * @param key names the program and its shapes; a mesh adds itself to it
 * @param build builds the program when it is not cached
 * @param donation the arguments each run consumes, derived from the built program
 * @param outputNames output i lies on a mesh as the value named {@code outputNames.get(i)}
 * @param parameterRoles parameter p lies on a mesh as the value {@code parameterRoles.get(p)}
 */
record ProgramSpec(
    String key,
    Supplier<Program> build,
    Function<Program, Donation> donation,
    List<String> outputNames,
    Map<String, String> parameterRoles) {

  ProgramSpec {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(build, "build");
    Objects.requireNonNull(donation, "donation");
    // null entries are meaningful (a value with no layout of its own), so no List/Map.copyOf
    outputNames = Collections.unmodifiableList(new ArrayList<>(outputNames));
    parameterRoles = Collections.unmodifiableMap(new HashMap<>(parameterRoles));
  }

  /** A program that donates nothing, laid out on a mesh by its parameter names alone. */
  static ProgramSpec of(String key, Supplier<Program> build) {
    return new ProgramSpec(key, build, p -> Donation.none(), List.of(), Map.of());
  }

  /** This spec with runs consuming the arguments {@code donation} names. */
  ProgramSpec donating(Function<Program, Donation> d) {
    return new ProgramSpec(key, build, d, outputNames, parameterRoles);
  }

  /** This spec with output i laid out as the value {@code names.get(i)}. */
  ProgramSpec outputs(List<String> names) {
    return new ProgramSpec(key, build, donation, names, parameterRoles);
  }

  /** This spec with parameter p laid out as the value {@code roles.get(p)}. */
  ProgramSpec roles(Map<String, String> roles) {
    return new ProgramSpec(key, build, donation, outputNames, roles);
  }
}
