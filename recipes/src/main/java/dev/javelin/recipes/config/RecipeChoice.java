package dev.javelin.recipes.config;

import dev.javelin.grpo.RecipeKeyed;
import java.util.List;
import java.util.Locale;

/**
 * An enum that a choice key of this package selects, spelled in the recipe as its constant's name
 * in lower case ({@code ONE_STEP_OFF} is {@code one_step_off}). Declare the key with {@link
 * KeyType#keysOf} and read it with {@link Settings#getChoice}.
 */
interface RecipeChoice extends RecipeKeyed {
  /** The constant's name; every enum has it. */
  String name();

  @Override
  default List<String> keys() {
    return List.of(name().toLowerCase(Locale.ROOT));
  }
}
