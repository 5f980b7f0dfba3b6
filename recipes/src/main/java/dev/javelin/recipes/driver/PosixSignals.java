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

  /**
   * Ends this process the way an unhandled SIGINT does (a shell reports 128 + 2), without running
   * the C library's exit: {@code Runtime.halt} does run it, and its static destructors race native
   * threads still running (Ray's core worker segfaulted there, leaving exit 134 and an hs_err
   * file). Falls back to {@code halt(fallbackStatus)} where the signal cannot be raised.
   */
  static void dieByInterrupt(int fallbackStatus) {
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      Object sig = signal.getConstructor(String.class).newInstance("INT");
      signal
          .getMethod("handle", signal, handlerType)
          .invoke(null, sig, handlerType.getField("SIG_DFL").get(null));
      signal.getMethod("raise", signal).invoke(null, sig);
      Thread.sleep(2000); // delivery is asynchronous; the process ends within it
    } catch (ReflectiveOperationException | RuntimeException e) {
      // no such signal here: halt below
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Runtime.getRuntime().halt(fallbackStatus);
  }
}
