package dev.javelin.trainer;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.logging.Logger;

/**
 * Builds a {@link Trainer} inside a {@link TrainerActor} from an opaque spec (for example a
 * recipe's YAML text and overrides), so that the actor's constructor arguments stay plain bytes.
 * Implementations are found with {@link ServiceLoader} under {@code
 * META-INF/services/dev.javelin.trainer.TrainerFactory}.
 */
public interface TrainerFactory {

  /** The name a driver asks for. */
  String name();

  /** A trainer for {@code spec}; a bad spec fails with a message naming the problem. */
  Trainer create(byte[] spec);

  /** The factory called {@code name} on the class path. */
  static TrainerFactory find(String name) {
    Logger log = Logger.getLogger(TrainerFactory.class.getName());
    List<String> seen = new ArrayList<>();
    ServiceLoader<TrainerFactory> loader = ServiceLoader.load(TrainerFactory.class);
    for (var it = loader.iterator(); ; ) {
      TrainerFactory f;
      try {
        if (!it.hasNext()) {
          break;
        }
        f = it.next();
      } catch (ServiceConfigurationError e) {
        log.warning("skipping a TrainerFactory provider that failed to load: " + e.getMessage());
        continue;
      }
      if (f.name().equals(name)) {
        return f;
      }
      seen.add(f.name());
    }
    throw new IllegalArgumentException(
        "no TrainerFactory named '" + name + "' on the class path; found " + seen);
  }
}
