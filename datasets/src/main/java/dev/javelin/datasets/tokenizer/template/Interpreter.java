package dev.javelin.datasets.tokenizer.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link Node} tree. Scoping follows Jinja: a {@code for} body gets its own scope per
 * iteration (so {@code set} inside it does not leak out), {@code if} does not, and {@code
 * namespace} objects are how templates carry values out of loops.
 */
final class Interpreter {
  private final StringBuilder out = new StringBuilder();
  private final RenderBudget budget = new RenderBudget();
  private Scope scope;

  private Interpreter(Map<String, Object> globals) {
    this.scope = new Scope(null, new HashMap<>(globals));
  }

  static String render(List<Node> nodes, Map<String, Object> variables) {
    Map<String, Object> globals = new HashMap<>(Globals.functions());
    globals.putAll(variables);
    Interpreter interpreter = new Interpreter(globals);
    interpreter.run(nodes);
    return interpreter.out.toString();
  }

  private record Scope(Scope parent, Map<String, Object> vars) {
    Object lookup(String name) {
      for (Scope s = this; s != null; s = s.parent) {
        if (s.vars.containsKey(name)) {
          return s.vars.get(name);
        }
      }
      return new Undefined(name);
    }
  }

  private void run(List<Node> nodes) {
    for (Node node : nodes) {
      budget.step(0);
      if (node instanceof Node.Text t) {
        append(t.text(), 0);
      } else if (node instanceof Node.Output o) {
        append(PyValues.str(eval(o.expr())), o.expr().line());
      } else if (node instanceof Node.If n) {
        runIf(n);
      } else if (node instanceof Node.For f) {
        runFor(f);
      } else if (node instanceof Node.Set s) {
        scope.vars.put(s.name(), eval(s.value()));
      } else if (node instanceof Node.SetAttr s) {
        Object target = scope.lookup(s.name());
        if (!(target instanceof Namespace ns)) {
          throw TemplateException.at(
              s.line(),
              "cannot set ."
                  + s.attr()
                  + " on "
                  + PyValues.typeName(target)
                  + " (only on a namespace)");
        }
        ns.attrs.put(s.attr(), eval(s.value()));
      }
    }
  }

  private void append(String text, int line) {
    RenderBudget.checkChars((long) out.length() + text.length(), line);
    out.append(text);
  }

  private void runIf(Node.If n) {
    for (Node.Branch branch : n.branches()) {
      if (PyValues.truthy(eval(branch.test()))) {
        run(branch.body());
        return;
      }
    }
    run(n.otherwise());
  }

  private void runFor(Node.For f) {
    List<?> all = Access.asList(eval(f.iterable()), f.iterable().line());
    List<Object> items = new ArrayList<>();
    for (Object item : all) {
      if (f.filter() == null
          || PyValues.truthy(withTargets(f, item, null, () -> eval(f.filter())))) {
        items.add(item);
      }
    }
    if (items.isEmpty()) {
      run(f.otherwise());
      return;
    }
    for (int i = 0; i < items.size(); i++) {
      budget.step(f.iterable().line());
      Object item = items.get(i);
      withTargets(
          f,
          item,
          loop(items, i),
          () -> {
            run(f.body());
            return null;
          });
    }
  }

  private interface Body {
    Object run();
  }

  private Object withTargets(Node.For f, Object item, Map<String, Object> loop, Body body) {
    Scope saved = scope;
    scope = new Scope(saved, new HashMap<>());
    try {
      bindTargets(f, item);
      if (loop != null) {
        scope.vars.put("loop", loop);
      }
      return body.run();
    } finally {
      scope = saved;
    }
  }

  private void bindTargets(Node.For f, Object item) {
    if (f.targets().size() == 1) {
      scope.vars.put(f.targets().get(0), item);
      return;
    }
    List<?> parts = Access.asList(item, f.iterable().line());
    if (parts.size() != f.targets().size()) {
      throw TemplateException.at(
          f.iterable().line(), "cannot unpack " + parts.size() + " values into " + f.targets());
    }
    for (int i = 0; i < parts.size(); i++) {
      scope.vars.put(f.targets().get(i), parts.get(i));
    }
  }

  private static Map<String, Object> loop(List<Object> items, int i) {
    int n = items.size();
    Map<String, Object> loop = new LinkedHashMap<>();
    loop.put("index", (long) i + 1);
    loop.put("index0", (long) i);
    loop.put("revindex", (long) (n - i));
    loop.put("revindex0", (long) (n - i - 1));
    loop.put("first", i == 0);
    loop.put("last", i == n - 1);
    loop.put("length", (long) n);
    loop.put("previtem", i > 0 ? items.get(i - 1) : new Undefined("loop.previtem"));
    loop.put("nextitem", i + 1 < n ? items.get(i + 1) : new Undefined("loop.nextitem"));
    return loop;
  }

  Object eval(Expr e) {
    budget.step(e.line());
    return RenderBudget.checked(evalUnchecked(e), e.line());
  }

  private Object evalUnchecked(Expr e) {
    if (e instanceof Expr.Literal l) {
      return l.value();
    } else if (e instanceof Expr.Name n) {
      return scope.lookup(n.name());
    } else if (e instanceof Expr.Attr a) {
      return Access.attr(eval(a.target()), a.name(), a.line());
    } else if (e instanceof Expr.Item i) {
      return Access.item(eval(i.target()), eval(i.key()), i.line());
    } else if (e instanceof Expr.Slice s) {
      return Access.slice(
          eval(s.target()),
          evalOrNull(s.start()),
          evalOrNull(s.stop()),
          evalOrNull(s.step()),
          s.line());
    } else if (e instanceof Expr.Call c) {
      return call(c);
    } else if (e instanceof Expr.Filter f) {
      return Filters.filter(
          f.name(), eval(f.value()), evalAll(f.args()), evalKw(f.kwargs()), f.line());
    } else if (e instanceof Expr.Test t) {
      return t.negated() != Filters.test(t.name(), eval(t.value()), evalAll(t.args()), t.line());
    } else if (e instanceof Expr.Binary b) {
      return Operators.binary(b, this);
    } else if (e instanceof Expr.Unary u) {
      return Operators.unary(u, eval(u.operand()));
    } else if (e instanceof Expr.Conditional c) {
      if (PyValues.truthy(eval(c.test()))) {
        return eval(c.then());
      }
      return c.otherwise() == null ? new Undefined("else") : eval(c.otherwise());
    } else if (e instanceof Expr.ListLiteral l) {
      return evalAll(l.items());
    } else {
      Expr.DictLiteral d = (Expr.DictLiteral) e;
      Map<Object, Object> map = new LinkedHashMap<>();
      for (int i = 0; i < d.keys().size(); i++) {
        map.put(eval(d.keys().get(i)), eval(d.values().get(i)));
      }
      return map;
    }
  }

  private Object call(Expr.Call c) {
    Object callee = eval(c.callee());
    if (callee instanceof TemplateFunction fn) {
      return fn.call(evalAll(c.args()), evalKw(c.kwargs()), c.line());
    }
    String what =
        callee instanceof Undefined u
            ? "'" + u.name() + "' (undefined)"
            : PyValues.typeName(callee);
    throw TemplateException.at(c.line(), what + " is not callable");
  }

  private Object evalOrNull(Expr e) {
    return e == null ? null : eval(e);
  }

  private List<Object> evalAll(List<Expr> exprs) {
    List<Object> values = new ArrayList<>(exprs.size());
    for (Expr x : exprs) {
      values.add(eval(x));
    }
    return values;
  }

  private Map<String, Object> evalKw(Map<String, Expr> kwargs) {
    Map<String, Object> values = new LinkedHashMap<>();
    kwargs.forEach((k, x) -> values.put(k, eval(x)));
    return values;
  }
}
