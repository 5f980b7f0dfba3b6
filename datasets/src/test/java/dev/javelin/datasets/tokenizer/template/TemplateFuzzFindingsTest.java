package dev.javelin.datasets.tokenizer.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What fuzzing the chat-template engine found, and the render bounds that stop hostile loops. */
class TemplateFuzzFindingsTest {
  private static String render(String template) {
    return ChatTemplate.compile(template).render(Map.of());
  }

  private static String failure(String template) {
    return assertThrows(TemplateException.class, () -> render(template)).getMessage();
  }

  /** Found by ChatTemplateFuzzTest: a u escape without hex digits hit a NumberFormatException. */
  @Test
  void aBadHexEscapeIsATemplateError() {
    assertTrue(failure("{{ 'a\\ul AI' }}").contains("escape needs 4 hex digits"));
    assertTrue(failure("{{ '\\x-1' }}").contains("escape needs 2 hex digits"));
    assertEquals("é!", render("{{ '\\u00e9\\x21' }}"));
  }

  /** Found by ChatTemplateFuzzTest: range(undefined) cast an Undefined to Number. */
  @Test
  void aMistypedOrMissingArgumentIsATemplateError() {
    assertTrue(failure("{{ range(nope) }}").contains("expected an integer, got undefined"));
    assertTrue(failure("{{ range('3') }}").contains("expected an integer, got string"));
    assertTrue(failure("{{ 3 is odd if 'x' is even }}").contains("expected an integer"));
    assertTrue(failure("{{ 1 is eq }}").contains("'eq' needs 1 argument(s)"));
    assertTrue(failure("{{ 'a' | replace('a') }}").contains("'replace' needs 2 argument(s)"));
    assertTrue(failure("{{ 'a' | trim(1) }}").contains("needs a string"));
    assertTrue(failure("{{ 'a' | abs }}").contains("expected a number, got string"));
    assertTrue(failure("{{ [1] | tojson(indent='x') }}").contains("expected an integer"));
    assertTrue(failure("{{ ','.join() }}").contains("'join' needs 1 argument(s)"));
    assertTrue(failure("{{ 'a b'.split(' ', none) }}").contains("expected an integer"));
    String grows = "{{ ('x' * 5000000) | replace('x', 'xxxx') }}";
    assertTrue(failure(grows).contains("is longer than 16777216"));
    assertTrue(failure("{{ ('x' * 5000000).replace('x', 'xxxx') }}").contains("is longer than"));
    assertEquals("[0, 1, 2]", render("{{ range(3) | list }}"));
    // `messages | items` cast a list to a Map
    assertTrue(failure("{{ [1, 2] | items }}").contains("items filter needs a mapping, got list"));
    assertTrue(failure("{{ 'ab' | items }}").contains("needs a mapping, got string"));
  }

  @Test
  void nestedLoopsStopAtTheStepBound() {
    String m =
        assertTimeoutPreemptively(
            Duration.ofSeconds(30),
            () ->
                failure(
                    "{% for a in range(1000000) %}{% for b in range(1000000) %}"
                        + "{% endfor %}{% endfor %}"));
    assertTrue(m.contains("rendering took more than 2000000 steps"), m);
  }

  @Test
  void stringsAndOutputStopAtTheSizeBound() {
    assertTrue(failure("{{ 'x' * 1000000000000 }}").contains("is longer than 16777216"));
    assertTrue(failure("{{ 'ab' * 9000000 }}").contains("is longer than 16777216"));
    assertEquals("", render("{{ '' * 1000000000000 }}"));
    String doubling =
        "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
            + "{% endfor %}";
    assertTrue(failure(doubling).contains("is longer than 16777216"));
    String output = "{% for i in range(100) %}{{ 'x' * 1000000 }}{% endfor %}";
    assertTrue(failure(output).contains("is longer than 16777216"));
  }

  @Test
  void listsStopAtTheItemBound() {
    String doubling =
        "{% set ns = namespace(l=[1]) %}{% for i in range(30) %}{% set ns.l = ns.l + ns.l %}"
            + "{% endfor %}";
    assertTrue(failure(doubling).contains("items is longer than 1048576"));
  }
}
