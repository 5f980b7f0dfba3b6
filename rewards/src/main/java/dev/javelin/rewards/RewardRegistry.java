package dev.javelin.rewards;

import dev.javelin.rewards.RewardConfigException.Field;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds reward functions by registered name ({@link java.util.ServiceLoader} over {@link
 * RewardFunctionProvider}) or by class name from a recipe. A provider that fails to load is skipped
 * with a logged reason; a duplicate name keeps the first provider and logs the other.
 */
public final class RewardRegistry {

  private static final System.Logger LOG = System.getLogger(RewardRegistry.class.getName());

  private final Map<String, RewardFunctionProvider> providers;
  private final ClassLoader loader;
  private final String codePath;
  private final RewardCode code;

  private RewardRegistry(
      Map<String, RewardFunctionProvider> providers,
      ClassLoader loader,
      String codePath,
      RewardCode code) {
    this.providers = Collections.unmodifiableMap(new TreeMap<>(providers));
    this.loader = loader;
    this.codePath = codePath;
    this.code = code;
  }

  /** Loads every provider visible to this module's class loader. */
  public static RewardRegistry load() {
    return load(RewardRegistry.class.getClassLoader());
  }

  /** Loads every provider visible to {@code loader}; class names also resolve through it. */
  public static RewardRegistry load(ClassLoader loader) {
    return new RewardRegistry(providers(loader), loader, null, null);
  }

  private static Map<String, RewardFunctionProvider> providers(ClassLoader loader) {
    Map<String, RewardFunctionProvider> found = new TreeMap<>();
    Iterator<RewardFunctionProvider> it =
        ServiceLoader.load(RewardFunctionProvider.class, loader).iterator();
    while (true) {
      RewardFunctionProvider p;
      try {
        if (!it.hasNext()) {
          break;
        }
        p = it.next();
      } catch (ServiceConfigurationError e) {
        LOG.log(System.Logger.Level.WARNING, "skipping reward provider: " + e.getMessage());
        continue;
      }
      RewardFunctionProvider prev = found.putIfAbsent(p.name(), p);
      if (prev != null) {
        LOG.log(
            System.Logger.Level.WARNING,
            "skipping reward provider "
                + p.getClass().getName()
                + ": name '"
                + p.name()
                + "' already taken by "
                + prev.getClass().getName());
      }
    }
    return found;
  }

  /**
   * The registry a spec resolves in: with {@code path}, its providers and classes come from that
   * code too ({@link RewardCode}); without, from this module's class loader.
   */
  public static RewardRegistry forSpec(RewardSpec spec) {
    ClassLoader base = RewardRegistry.class.getClassLoader();
    if (spec.path() == null) {
      return load(base);
    }
    return forCode(spec, RewardCode.open(spec.path()));
  }

  /**
   * The registry of {@code spec} whose {@code path} was already opened as {@code code} (a reward
   * worker gets the compiled folder; messages still name the recipe's path).
   */
  public static RewardRegistry forCode(RewardSpec spec, RewardCode code) {
    ClassLoader loader = code.loader(RewardRegistry.class.getClassLoader());
    String shown = spec.path() == null ? code.root().toString() : spec.path();
    return new RewardRegistry(providers(loader), loader, shown, code);
  }

  /** Registered names, sorted. */
  public java.util.Set<String> names() {
    return providers.keySet();
  }

  /** Creates a registered function; unknown names fail with the list of known ones. */
  public RewardFunction create(String name, Map<String, Object> kwargs) {
    RewardFunctionProvider p = providers.get(name);
    if (p == null) {
      throw new RewardConfigException(
          Field.NAME,
          "unknown reward function '"
              + name
              + "'; registered: "
              + names()
              + (code == null ? "" : inCode(name))
              + " (register one via META-INF/services/"
              + RewardFunctionProvider.class.getName()
              + ")");
    }
    return p.create(kwargs == null ? Map.of() : kwargs, this);
  }

  /**
   * Resolves a recipe spec: class first, then name (a registered name, else a class this registry's
   * loader finds, as VeRL's {@code name} names a function inside {@code path}), else the
   * data-source dispatcher.
   */
  public RewardFunction resolve(RewardSpec spec) {
    if (spec.className() != null) {
      return createFromClass(spec.className(), spec.kwargs());
    }
    if (spec.name() != null) {
      if (!providers.containsKey(spec.name()) && loadable(spec.name())) {
        return createFromClass(spec.name(), spec.kwargs());
      }
      return create(spec.name(), spec.kwargs());
    }
    return DataSourceDispatcher.withDefaults(this, spec.kwargs());
  }

  private boolean loadable(String className) {
    try {
      Class.forName(className, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Instantiates {@code className}: a {@link RewardFunctionProvider} (no-arg constructor), or a
   * {@link RewardFunction} with a public {@code (Map)} or no-arg constructor.
   */
  public RewardFunction createFromClass(String className, Map<String, Object> kwargs) {
    Map<String, Object> kw = kwargs == null ? Map.of() : kwargs;
    Class<?> cls;
    try {
      cls = Class.forName(className, true, loader);
    } catch (ClassNotFoundException e) {
      throw new RewardConfigException(Field.CLASS_NAME, notFound(className), e);
    } catch (LinkageError e) {
      throw new RewardConfigException(
          Field.CLASS_NAME, "cannot load '" + className + "' (" + e + ")", e);
    }
    try {
      if (RewardFunctionProvider.class.isAssignableFrom(cls)) {
        RewardFunctionProvider p = (RewardFunctionProvider) cls.getConstructor().newInstance();
        return p.create(kw, this);
      }
      if (RewardFunction.class.isAssignableFrom(cls)) {
        return instantiateFunction(cls, kw);
      }
    } catch (ReflectiveOperationException e) {
      Throwable cause = e instanceof InvocationTargetException ite ? ite.getCause() : e;
      if (cause instanceof RewardConfigException rce) {
        throw rce;
      }
      throw new RewardConfigException(
          Field.CLASS_NAME, "cannot instantiate '" + className + "' (" + cause + ")", cause);
    }
    throw new RewardConfigException(
        Field.CLASS_NAME,
        "'" + className + "' implements neither RewardFunction nor RewardFunctionProvider");
  }

  /**
   * The message for a class name that does not load: with {@code path}, that it is not in that
   * code, the classes it holds and the nearest name.
   */
  private String notFound(String className) {
    if (code == null) {
      return "class '" + className + "' not found on the class path (point the path at its code)";
    }
    return "class '" + className + "'" + inCode(className);
  }

  /** "not found in PATH; did you mean 'N'? (classes there: [...])" for a name not in the code. */
  private String inCode(String className) {
    List<String> names = code.classNames();
    String nearest = ClassNames.nearest(className, names);
    return " not found in "
        + codePath
        + (nearest == null ? "" : "; did you mean '" + nearest + "'?")
        + " (classes there: "
        + (names.size() > 10 ? names.subList(0, 10) + " ..." : names)
        + ")";
  }

  private static RewardFunction instantiateFunction(Class<?> cls, Map<String, Object> kw)
      throws ReflectiveOperationException {
    for (Constructor<?> c : cls.getConstructors()) {
      Class<?>[] params = c.getParameterTypes();
      if (params.length == 1 && params[0] == Map.class) {
        return (RewardFunction) c.newInstance(kw);
      }
    }
    if (!kw.isEmpty() && perRewardSections(kw)) {
      // {gsm8k: {method: flexible}} configures the data-source dispatcher's rewards (a recipe
      // such as recipes/README's sums-grpo.yaml), not a function that takes no arguments.
      LOG.log(
          System.Logger.Level.WARNING,
          "reward kwargs "
              + kw.keySet()
              + " not passed to "
              + cls.getName()
              + ": it has no (Map) constructor; using its no-arg constructor");
      kw = Map.of();
    }
    if (!kw.isEmpty()) {
      throw new RewardConfigException(
          Field.KWARGS,
          cls.getName()
              + " has no public (Map) constructor, so it cannot take keyword arguments "
              + kw.keySet());
    }
    try {
      return (RewardFunction) cls.getConstructor().newInstance();
    } catch (NoSuchMethodException e) {
      throw new RewardConfigException(
          Field.CLASS_NAME,
          cls.getName()
              + " needs a public no-arg or (java.util.Map) constructor (and a public class)",
          e);
    }
  }

  /** Whether every kwarg is a section of its own (a map), as the dispatcher's per-reward form. */
  private static boolean perRewardSections(Map<String, Object> kw) {
    return kw.values().stream().allMatch(v -> v instanceof Map);
  }
}
