package dev.javelin.recipes.config;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.List;

/**
 * Contract: any recipe text with any {@code key=value} overrides loads, or fails with one {@link
 * ConfigException} (the line a user sees, exit 2); never another exception.
 */
class RecipeFuzzTest {
  @FuzzTest(maxDuration = "12s")
  void anyYamlAndOverridesLoadOrFailTyped(FuzzedDataProvider data) {
    List<String> overrides = new ArrayList<>();
    int n = data.consumeInt(0, 3);
    for (int i = 0; i < n; i++) {
      overrides.add(data.consumeString(80));
    }
    String yaml = data.consumeRemainingAsString();
    try {
      Recipes.fromYaml(yaml, "fuzz.yaml", overrides);
    } catch (ConfigException expected) {
      // typed
    }
  }
}
