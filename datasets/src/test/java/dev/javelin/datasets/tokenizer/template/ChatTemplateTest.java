package dev.javelin.datasets.tokenizer.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.javelin.datasets.ChatMessage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Jinja subset: expected outputs are what Jinja2 with trim_blocks/lstrip_blocks prints. */
class ChatTemplateTest {

  private static String render(String template, Map<String, ?> vars) {
    return ChatTemplate.compile(template).render(vars);
  }

  private static String render(String template) {
    return render(template, Map.of());
  }

  @ParameterizedTest
  @CsvSource(
      delimiterString = " ⇒ ",
      quoteCharacter = '`',
      value = {
        "{{ 1 + 2 * 3 }} ⇒ 7",
        "{{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 7 / 2 }} ⇒ 3 -4 1 2 3.5",
        "{{ 'a' ~ 1 ~ none }} ⇒ a1None",
        "{{ 'ab' + 'cd' }} ⇒ abcd",
        "{{ 'abc'[::-1] }}{{ [1,2,3][1:] }}{{ 'hello'[-1] }} ⇒ cba[2, 3]o",
        "{{ '  x  ' | trim }} ⇒ x",
        "{{ [1, 2] | length }}{{ 'héllo' | length }} ⇒ 25",
        "{{ 'a b  c'.split() }}{{ 'a,b,,c'.split(',') }} ⇒ ['a', 'b', 'c']['a', 'b', '', 'c']",
        "{{ '\\n\\nx\\n'.strip('\\n') }} ⇒ x",
        "{{ 'xxhixx'.lstrip('x') }}-{{ 'xxhixx'.rstrip('x') }} ⇒ hixx-xxhi",
        "{{ 'abc'.startswith('a') }} {{ 'abc'.endswith('bc') }} {{ 'b' in 'abc' }} {{ 'z' not in 'abc' }} ⇒ True True True True",
        "{{ true and 'x' }}{{ false or 0 }}{{ not none }} ⇒ x0True",
        "{{ 'y' if 1 > 2 else 'n' }} ⇒ n",
        "{{ {'a': [1, 'b']} | tojson }} ⇒ {\"a\": [1, \"b\"]}",
        "{{ 'é\"' | tojson }} ⇒ \"é\\\"\"",
        "{% set x = 3 %}{% if x == 1 %}one{% elif x == 3 %}three{% else %}other{% endif %} ⇒ three",
        "{% for i in [1, 2, 3] %}{{ loop.index }}{{ loop.first }}{{ loop.last }},{% endfor %} ⇒ 1TrueFalse,2FalseFalse,3FalseTrue,",
        "{% for i in [] %}x{% else %}empty{% endfor %} ⇒ empty",
        "{% for i in [1, 2, 3, 4] if i is even %}{{ i }}{% endfor %} ⇒ 24",
        "{% for k, v in {'a': 1}.items() %}{{ k }}={{ v }}{% endfor %} ⇒ a=1",
        "{% set ns = namespace(n=0) %}{% for i in [1, 2] %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }} ⇒ 3",
        "{% set n = 0 %}{% for i in [1, 2] %}{% set n = i %}{% endfor %}{{ n }} ⇒ 0",
        "{{ x is defined }}{{ x is not defined }}{{ none is none }}{{ 'a' is string }} ⇒ FalseTrueTrueTrue",
        "{{ undefined_thing }} ⇒ ``",
        "{# a comment #}x ⇒ x",
        "{{ \"it's\" }} ⇒ it's",
        "{{ range(3) | list }}{{ [3, 1] | first }}{{ ['a', 'b'] | join('-') }} ⇒ [0, 1, 2]3a-b",
      })
  void expressionsAndStatements(String template, String expected) {
    assertEquals(expected, render(template));
  }

  @Test
  void whitespaceControlFollowsTransformersSettings() {
    // trim_blocks drops the newline after a block tag; lstrip_blocks drops indentation before one.
    String template =
        "{% for m in ms %}\n    {% if m %}\n  [{{ m }}]\n    {% endif %}\n{% endfor %}\nend\n";
    assertEquals("  [a]\n  [b]\nend", render(template, Map.of("ms", List.of("a", "b"))));
    assertEquals("a b", render("a  {{- ' ' -}}  \n b"));
    assertEquals("ab", render("a\n  {%- if true %}\nb{% endif %}"));
    assertEquals("x y", render("x {%+ if true %}y{% endif %}"));
  }

  @Test
  void rendersConversationVariables() {
    ChatTemplate t =
        ChatTemplate.compile(
            "{{ bos_token }}{% for m in messages %}<{{ m.role }}>{{ m['content'] }}{% endfor %}"
                + "{% if add_generation_prompt %}<assistant>{% endif %}");
    List<ChatMessage> msgs = List.of(ChatMessage.system("s"), ChatMessage.user("u"));
    assertEquals(
        "<s><system>s<user>u<assistant>", t.render(msgs, true, Map.of("bos_token", "<s>")));
    assertEquals("<s><system>s<user>u", t.render(msgs, false, Map.of("bos_token", "<s>")));
  }

  @ParameterizedTest
  @CsvSource(
      delimiterString = " ⇒ ",
      quoteCharacter = '`',
      value = {
        "{% macro m() %}x{% endmacro %} ⇒ {% macro %}",
        "{% raw %}x{% endraw %} ⇒ {% raw %}",
        "{{ x | wordwrap }} ⇒ filter 'wordwrap'",
        "{{ x is sameas(y) }} ⇒ test 'is sameas'",
        "{% if x %}never closed ⇒ endif",
        "{{ 'a' + }} ⇒ expression expected",
        "{% set x %}y{% endset %} ⇒ endset",
      })
  void unsupportedOrBrokenTemplatesNameTheProblem(String template, String inMessage) {
    TemplateException e =
        assertThrows(TemplateException.class, () -> render(template, Map.of("x", "v", "y", "w")));
    assertTrue(
        e.getMessage().contains(inMessage), () -> e.getMessage() + " should mention " + inMessage);
  }

  @Test
  void raiseExceptionStopsRenderingWithTheTemplatesMessage() {
    TemplateException e =
        assertThrows(
            TemplateException.class, () -> render("{{ raise_exception('roles must alternate') }}"));
    assertTrue(e.getMessage().contains("roles must alternate"), e.getMessage());
  }

  @Test
  void typeErrorsAreReportedNotIgnored() {
    assertThrows(TemplateException.class, () -> render("{{ 'a' + 1 }}"));
    assertThrows(TemplateException.class, () -> render("{{ missing.attr }}"));
    assertThrows(TemplateException.class, () -> render("{{ 1 / 0 }}"));
  }
}
