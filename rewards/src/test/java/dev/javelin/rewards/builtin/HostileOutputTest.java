package dev.javelin.rewards.builtin;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.javelin.rewards.RewardFunction;
import dev.javelin.rewards.RewardInput;
import dev.javelin.rewards.RewardRegistry;
import dev.javelin.rewards.RewardResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile model outputs: 10 MB responses, 100k nested braces, 10^6-digit numbers, an unbalanced box
 * (an opening "\\boxed{" never closed), invalid UTF-16. Every built-in must score each one within
 * 50 ms without throwing (a stack overflow would surface as an Error here). Time is the scoring
 * thread's CPU time, best of three.
 */
class HostileOutputTest {

  private static final long LIMIT_NANOS = 50_000_000L;
  // CPU time of the scoring thread: the shared CI machine runs other builds at the same time, so
  // wall time would measure their load, not the scorer's cost.
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  private static final Map<String, String> HOSTILE = hostileResponses();
  private static final List<RewardFunction> FUNCTIONS = new ArrayList<>();

  @BeforeAll
  static void warmUp() {
    RewardRegistry registry = RewardRegistry.load();
    for (String name :
        List.of("gsm8k", "math", "math_dapo", "countdown", "format", "exact_match")) {
      FUNCTIONS.add(registry.create(name, Map.of()));
    }
    // math with the text fallbacks and joined boxes: named "math" too, told apart by position
    FUNCTIONS.add(registry.create("math", Map.of("extraction", "math_verify")));
    // Let the JIT compile the scanners first: the limit is about algorithmic cost, not start-up.
    String normal =
        "<think>2+2</think> Answer: 4 so \\boxed{\\frac{1}{2}} #### 4 <answer>1+2+3</answer>";
    for (int i = 0; i < 3000; i++) {
      for (RewardFunction f : FUNCTIONS) {
        f.score(input(normal + i, "4"));
      }
    }
  }

  @Test
  void everyBuiltInScoresEveryHostileOutputFastAndSafely() {
    List<String> failures = new ArrayList<>();
    long slowest = 0;
    String slowestWhat = "";
    for (RewardFunction f : FUNCTIONS) {
      for (Map.Entry<String, String> h : HOSTILE.entrySet()) {
        for (String gold : List.of("5", h.getValue())) {
          long best = Long.MAX_VALUE;
          for (int attempt = 0; attempt < 3; attempt++) { // best of 3: shared CI cores are noisy
            long t0 = CPU.getCurrentThreadCpuTime();
            try {
              RewardResult r = f.score(input(h.getValue(), gold));
              assertTrue(Double.isFinite(r.score()));
            } catch (RuntimeException | StackOverflowError e) {
              fail(f.name() + " threw on " + h.getKey() + ": " + e);
            }
            best = Math.min(best, CPU.getCurrentThreadCpuTime() - t0);
          }
          if (best > slowest) {
            slowest = best;
            slowestWhat = f.name() + " on " + h.getKey();
          }
          if (best > LIMIT_NANOS) {
            failures.add(
                f.name()
                    + " on "
                    + h.getKey()
                    + (gold.equals("5") ? "" : " (as gold too)")
                    + ": "
                    + best / 1_000_000
                    + " ms");
          }
        }
      }
    }
    System.out.println(
        "hostile outputs: slowest call " + slowest / 1_000 + " us (" + slowestWhat + ")");
    assertTrue(failures.isEmpty(), "over 50 ms: " + failures);
  }

  private static RewardInput input(String response, String gold) {
    String gt = gold;
    Map<String, Object> extra = Map.of("target", 6, "numbers", List.of(1, 2, 3));
    return new RewardInput("hostile", "", response, gt, extra);
  }

  private static Map<String, String> hostileResponses() {
    Map<String, String> m = new LinkedHashMap<>();
    String tenMb = "The answer is 42, maybe. ".repeat(10 * 1024 * 1024 / 25);
    m.put("10 MB of prose", tenMb);
    m.put("10 MB then a box", tenMb + "\\boxed{42} #### 42 Answer: 42 <answer>1+2+3</answer>");
    m.put("10 MB of boxes", "\\boxed{".repeat(10 * 1024 * 1024 / 7));
    m.put("10 MB inside one box", "\\boxed{" + "x+".repeat(5 * 1024 * 1024) + "1}");
    m.put("100k nested braces", "\\boxed{" + "{".repeat(100_000) + "5" + "}".repeat(100_000) + "}");
    m.put("100k open braces", "\\boxed{" + "{".repeat(100_000) + "5");
    m.put(
        "100k nested parens",
        "<answer>" + "(".repeat(100_000) + "6" + ")".repeat(100_000) + "</answer>");
    m.put("2k nested fracs", "\\boxed{" + "\\frac{1}{".repeat(2000) + "2" + "}".repeat(2000) + "}");
    m.put("deep parens under limits", "\\boxed{" + "(".repeat(900) + "1" + ")".repeat(900) + "}");
    m.put("long unary chain", "\\boxed{" + "-".repeat(1900) + "1}");
    String million = "9".repeat(1_000_000);
    m.put("10^6-digit number boxed", "\\boxed{" + million + "}");
    m.put("10^6-digit number bare", million);
    m.put("10^6-digit strict gsm8k", "#### " + million);
    m.put("10^6-digit answer line", "Answer: " + million);
    m.put("huge power", "\\boxed{10^{999999}+2^{2^{2^{2^{2}}}}}");
    m.put("huge exponent literal", "\\boxed{1e999999}");
    m.put(
        "many surds",
        "\\boxed{(" + "+\\sqrt{2}+\\sqrt{3}+\\sqrt{5}+\\sqrt{7}".repeat(20) + ")^{64}}");
    m.put("unbalanced box", "\\boxed{" + "x".repeat(1_000_000));
    m.put("unbalanced box at end", "so \\boxed{");
    m.put(
        "lone surrogates",
        "\uD800\\boxed{\uDC00}\uD800 #### \uDFFF Answer: \uD800 <answer>\uDC00</answer>");
    m.put("reversed surrogate pairs", "\uDC00\uD800".repeat(1_000_000) + "\\boxed{\uDC00\uD800}");
    m.put("think tags 10 MB", "<think>".repeat(10 * 1024 * 1024 / 7) + "</think>");
    m.put("answer tags 10 MB", "<answer>".repeat(10 * 1024 * 1024 / 8) + "</answer>");
    m.put("nul and control chars", "\u0000\u0001\\boxed{\u0000}\u0007");
    m.put("empty", "");
    String hundredKb = "1+".repeat(50 * 1024) + "1";
    m.put("100 kB boxed answer", "\\boxed{" + hundredKb + "}");
    m.put("100 kB stated answer", "The answer is " + hundredKb + ".");
    m.put("100 kB final-line math", "So $" + hundredKb + "$");
    m.put("100 kB of dollars", "$".repeat(100 * 1024));
    m.put("100 kB of answer is", "answer is ".repeat(10 * 1024));
    m.put("deep logs", "\\boxed{" + "\\log_{".repeat(500) + "2" + "}".repeat(500) + "}");
    m.put("deep roots", "\\boxed{" + "\\sqrt[3]{".repeat(600) + "4" + "}".repeat(600) + "}");
    m.put("factorial chain", "\\boxed{" + "(".repeat(300) + "9" + ")!".repeat(300) + "}");
    m.put("power tower", "\\boxed{" + "10^{0.01^{".repeat(300) + "2" + "}}".repeat(300) + "}");
    m.put("many boxes, list gold", "\\boxed{1}, ".repeat(20 * 1024));
    m.put("long inequality chain", "\\boxed{" + "x \\le ".repeat(5000) + "1}");
    m.put("9 kB equation chain", "\\boxed{" + "|x| = ".repeat(1500) + "1}");
    m.put("9 kB of cases", "\\boxed{" + "1 \\text{ if } n \\equiv 1; ".repeat(300) + "}");
    return m;
  }
}
