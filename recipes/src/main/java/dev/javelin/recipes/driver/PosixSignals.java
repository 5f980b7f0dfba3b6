package dev.javelin.recipes.driver;

import java.lang.reflect.Proxy;

/**
 * SIGINT/SIGTERM handlers through {@code sun.misc.Signal} (module jdk.unsupported, the JDK's only
 * way to catch them). It is looked up reflectively so that compiling against it raises no
 * internal-API warning, which the build treats as an error.
 */
final class PosixSignals {
  private PosixSignals() {}

  /**
   * Runs {@code onSignal} on each delivery of signal {@code name} ("INT", "TERM").
   *
   * @return false when the platform lacks the signal, the JVM reserves it, or this process was
   *     started with the signal ignored (SIGINT for a job a shell script put in the background,
   *     SIGHUP under nohup): the JVM then installs nothing and says so only by handing back SIG_IGN
   *     as the previous handler
   */
  static boolean handle(String name, Runnable onSignal) {
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      Object handler =
          Proxy.newProxyInstance(
              handlerType.getClassLoader(),
              new Class<?>[] {handlerType},
              (proxy, method, args) ->
                  switch (method.getName()) {
                    case "handle" -> {
                      onSignal.run();
                      yield null;
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> "PosixSignals handler for SIG" + name;
                  });
      Object sig = signal.getConstructor(String.class).newInstance(name);
      Object previous = signal.getMethod("handle", signal, handlerType).invoke(null, sig, handler);
      return previous != handlerType.getField("SIG_IGN").get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false; // e.g. IllegalArgumentException: the signal is reserved or unknown here
    }
  }
}
