package dev.javelin.datasets.synthetic;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Exhaustive search over countdown expressions: every way to combine {@code numbers}, each used
 * exactly once, with {@code + - * /} and parentheses, in exact rational arithmetic (as TinyZero's
 * reward checks it).
 *
 * <p>Search: repeatedly replace two of the remaining values by one combination of them; {@code n}
 * numbers give {@code prod_{k=2..n} C(k,2)*6} complete expressions: 3,888 for four numbers, about
 * 233k for five. Expression text is built only for the witness that is returned.
 */
public final class CountdownSolver {
  /** Six numbers would mean ~21M expressions per search; stay below. */
  public static final int MAX_NUMBERS = 5;

  private CountdownSolver() {}

  /** A witness such as {@code ((3+5)*2)}, or empty when no expression reaches the target. */
  public static Optional<String> solve(List<Long> numbers, long target) {
    Term[] found = new Term[1];
    search(
        leaves(numbers),
        term -> {
          if (term.value().equalsInteger(target)) {
            found[0] = term;
            return true;
          }
          return false;
        });
    return Optional.ofNullable(found[0]).map(Term::text);
  }

  /** Every integer in {@code [min, max]} that some expression over all {@code numbers} equals. */
  public static long[] reachableTargets(List<Long> numbers, long min, long max) {
    TreeSet<Long> reachable = new TreeSet<>();
    search(
        leaves(numbers),
        term -> {
          Fraction value = term.value();
          if (value.den() == 1 && value.num() >= min && value.num() <= max) {
            reachable.add(value.num());
          }
          return false;
        });
    return reachable.stream().mapToLong(Long::longValue).toArray();
  }

  /** A value with the expression tree that produced it; leaves have no operands. */
  private record Term(Fraction value, Term left, char op, Term right) {
    static Term leaf(long number) {
      return new Term(Fraction.of(number), null, ' ', null);
    }

    String text() {
      if (left == null) {
        return Long.toString(value.num());
      }
      return "(" + left.text() + op + right.text() + ")";
    }
  }

  private static List<Term> leaves(List<Long> numbers) {
    if (numbers.isEmpty() || numbers.size() > MAX_NUMBERS) {
      throw new IllegalArgumentException(
          "countdown: need 1 to " + MAX_NUMBERS + " numbers, got " + numbers.size());
    }
    List<Term> terms = new ArrayList<>(numbers.size());
    numbers.forEach(number -> terms.add(Term.leaf(number)));
    return terms;
  }

  /** Calls {@code visit} on every complete expression until it returns true; returns that. */
  private static boolean search(List<Term> terms, Predicate<Term> visit) {
    if (terms.size() == 1) {
      return visit.test(terms.get(0));
    }
    for (int i = 0; i < terms.size(); i++) {
      for (int j = i + 1; j < terms.size(); j++) {
        List<Term> rest = new ArrayList<>(terms.size() - 1);
        for (int k = 0; k < terms.size(); k++) {
          if (k != i && k != j) {
            rest.add(terms.get(k));
          }
        }
        for (Term combined : combinations(terms.get(i), terms.get(j))) {
          rest.add(combined);
          if (search(rest, visit)) {
            return true;
          }
          rest.remove(rest.size() - 1);
        }
      }
    }
    return false;
  }

  private static List<Term> combinations(Term a, Term b) {
    List<Term> out = new ArrayList<>(6);
    tryAdd(out, a, '+', b);
    tryAdd(out, a, '*', b);
    tryAdd(out, a, '-', b);
    tryAdd(out, b, '-', a);
    tryAdd(out, a, '/', b);
    tryAdd(out, b, '/', a);
    return out;
  }

  private static void tryAdd(List<Term> out, Term left, char op, Term right) {
    Fraction l = left.value();
    Fraction r = right.value();
    try {
      Fraction value =
          switch (op) {
            case '+' -> l.plus(r);
            case '-' -> l.minus(r);
            case '*' -> l.times(r);
            case '/' -> r.isZero() ? null : l.dividedBy(r);
            default -> throw new IllegalArgumentException("operator " + op);
          };
      if (value != null) {
        out.add(new Term(value, left, op, right));
      }
    } catch (ArithmeticException overflow) {
      // A value beyond long range cannot come back to a small target in this search: prune it.
    }
  }
}
