package dev.javelin.backend.spmd;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Devices laid out on named axes, e.g. {@code fsdp=4} or {@code fsdp=2,tp=2}. Mesh positions are
 * row-major over the axes (the first axis is the slowest); position {@code p} runs on device {@code
 * deviceIds.get(p)}, a PJRT device id. Positions are what sharding strings and partition ids refer
 * to, so one program compiles for any device order.
 *
 * @param axes the axes, major first; names unique, sizes at least 1
 * @param deviceIds one device id per position, distinct; as many as the product of the axis sizes
 */
public record Mesh(List<Axis> axes, List<Integer> deviceIds) {

  /** A named mesh axis. */
  public record Axis(String name, int size) {
    public Axis {
      if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new IllegalArgumentException(
            "mesh axis name '" + name + "' must be letters, digits and underscores");
      }
      if (size < 1) {
        throw new IllegalArgumentException("mesh axis " + name + " has size " + size);
      }
    }
  }

  public Mesh {
    axes = List.copyOf(axes);
    deviceIds = List.copyOf(deviceIds);
    if (axes.isEmpty()) {
      throw new IllegalArgumentException("a mesh needs at least one axis");
    }
    Set<String> names = new HashSet<>();
    long size = 1;
    for (Axis a : axes) {
      if (!names.add(a.name())) {
        throw new IllegalArgumentException("mesh axis " + a.name() + " appears twice");
      }
      size *= a.size();
    }
    if (deviceIds.size() != size) {
      throw new IllegalArgumentException(
          "mesh "
              + describe(axes)
              + " has "
              + size
              + " positions but "
              + deviceIds.size()
              + " device ids "
              + deviceIds);
    }
    if (new HashSet<>(deviceIds).size() != deviceIds.size()) {
      throw new IllegalArgumentException("mesh device ids repeat: " + deviceIds);
    }
  }

  /** A one-axis mesh over devices {@code 0..size-1}. */
  public static Mesh of(String axis, int size) {
    return iota(List.of(new Axis(axis, size)));
  }

  /** A mesh over devices {@code 0..n-1} in position order. */
  public static Mesh iota(List<Axis> axes) {
    long n = 1;
    for (Axis a : axes) {
      n *= a.size();
    }
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(i);
    }
    return new Mesh(axes, ids);
  }

  /**
   * Parses {@code name=size[,name=size...]} (e.g. {@code fsdp=2,tp=2}) over devices {@code 0..n-1}.
   */
  public static Mesh parse(String spec) {
    List<Axis> axes = new ArrayList<>();
    for (String part : spec.split(",", -1)) {
      String[] kv = part.trim().split("=", -1);
      if (kv.length != 2 || !kv[1].trim().matches("[0-9]{1,9}")) {
        throw new IllegalArgumentException(
            "mesh '" + spec + "': expected name=size[,name=size...], e.g. fsdp=2,tp=2");
      }
      axes.add(new Axis(kv[0].trim(), Integer.parseInt(kv[1].trim())));
    }
    return iota(axes);
  }

  /** Number of devices. */
  public int size() {
    return deviceIds.size();
  }

  /** The index of the named axis; an unknown name is an error naming the mesh's axes. */
  public int axisIndex(String name) {
    for (int i = 0; i < axes.size(); i++) {
      if (axes.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("mesh " + this + " has no axis '" + name + "'");
  }

  public int axisSize(String name) {
    return axes.get(axisIndex(name)).size();
  }

  /** The coordinate of each axis at a position. */
  public int[] coordinates(int position) {
    int[] c = new int[axes.size()];
    int rest = position;
    for (int i = axes.size() - 1; i >= 0; i--) {
      c[i] = rest % axes.get(i).size();
      rest /= axes.get(i).size();
    }
    return c;
  }

  /** The position at the given axis coordinates. */
  public int position(int[] coordinates) {
    int p = 0;
    for (int i = 0; i < axes.size(); i++) {
      p = p * axes.get(i).size() + coordinates[i];
    }
    return p;
  }

  @Override
  public String toString() {
    return describe(axes) + " over devices " + deviceIds;
  }

  private static String describe(List<Axis> axes) {
    List<String> parts = new ArrayList<>();
    axes.forEach(a -> parts.add(a.name() + "=" + a.size()));
    return String.join(",", parts);
  }
}
