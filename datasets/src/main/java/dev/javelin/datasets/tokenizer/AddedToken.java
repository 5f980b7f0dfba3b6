package dev.javelin.datasets.tokenizer;

import java.util.Objects;

/**
 * A token of tokenizer.json's {@code added_tokens}: matched verbatim in the input before
 * pre-tokenizing.
 *
 * @param id its id
 * @param content the literal text, e.g. {@code <|im_end|>}
 * @param special whether {@code decode(ids, skipSpecial=true)} drops it
 */
record AddedToken(int id, String content, boolean special) {
  AddedToken {
    Objects.requireNonNull(content, "content");
    if (id < 0) {
      throw new IllegalArgumentException("added token id must be >= 0, got " + id);
    }
    if (content.isEmpty()) {
      throw new IllegalArgumentException("added token " + id + " has empty content");
    }
  }
}
