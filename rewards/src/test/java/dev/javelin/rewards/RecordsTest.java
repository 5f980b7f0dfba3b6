package dev.javelin.rewards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordsTest {

  @Test
  void inputReplacesNullsAndFreezesExtraInfo() {
    Map<String, Object> extra = new HashMap<>();
    extra.put("k", null);
    RewardInput in = new RewardInput(null, null, null, null, extra);
    assertEquals("", in.dataSource());
    assertEquals("", in.response());
    assertTrue(in.extraInfo().containsKey("k"));
    assertThrows(UnsupportedOperationException.class, () -> in.extraInfo().put("x", 1));
  }

  @Test
  void resultRejectsNonFiniteScores() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RewardResult.of(Double.NaN));
    assertTrue(e.getMessage().contains("score"));
    assertEquals(1, RewardResult.of(1).with("acc", true).extras().size());
  }

  @Test
  void kwargsAreTypedAndNameTheFunctionAndKey() {
    RewardKwargs kw =
        RewardKwargs.of(
            "f", Map.of("a", "2.5", "b", "TRUE", "c", List.of(Map.of("n", 1))), "a", "b", "c");
    assertEquals(2.5, kw.getDouble("a", 0));
    assertTrue(kw.getBoolean("b", false));
    assertEquals(1, kw.getMapList("c").size());
    assertEquals("d", kw.getString("missing", "d"));
    RewardConfigException e =
        assertThrows(RewardConfigException.class, () -> kw.getBoolean("a", false));
    assertTrue(e.getMessage().contains("'f'") && e.getMessage().contains("'a'"), e.getMessage());
  }
}
