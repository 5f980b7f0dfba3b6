package dev.javelin.recipes.cli;

import dev.javelin.recipes.config.ConfigException;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of one command with its {@code --name value} / {@code --name=value} options and
 * {@code --flag}s taken out as they are read; what remains are the positional arguments.
 */
final class CliOptions {
  private final String command;
  private final List<String> args;

  CliOptions(String command, List<String> args) {
    this.command = command;
    this.args = new ArrayList<>(args);
  }

  /** Removes {@code --name value} or {@code --name=value}; returns the value or {@code dflt}. */
  String option(String name, String dflt) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals(name)) {
        if (i + 1 >= args.size()) {
          throw new ConfigException(command + ": " + name + " needs a value");
        }
        args.remove(i);
        return args.remove(i);
      }
      if (a.startsWith(name + "=")) {
        args.remove(i);
        return a.substring(name.length() + 1);
      }
    }
    return dflt;
  }

  /** Removes {@code --name}; returns whether it was there. */
  boolean flag(String name) {
    return args.remove(name);
  }

  /**
   * The positional arguments; any option left over, other than the {@code passThrough} ones (read
   * later with their values), is an error naming the allowed ones.
   */
  List<String> positional(String allowed, String... passThrough) {
    for (String a : args) {
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (a.startsWith("--") && !List.of(passThrough).contains(name)) {
        throw new ConfigException(command + ": unknown option " + a + " (" + allowed + ")");
      }
    }
    return List.copyOf(args);
  }
}
