package dev.javelin.recipes.metrics;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Jackson mappers for JSON this process did not write itself (run files, server answers, actor
 * reports): nesting, strings, documents and numbers bounded, so a hostile or truncated input costs
 * at most its stated size. Callers use the tree model only (no data binding, no polymorphic types).
 */
public final class BoundedMapper {
  private static final int MAX_NUMBER_CHARS = 64;

  private BoundedMapper() {}

  /** A mapper refusing nesting deeper than {@code maxDepth} and documents over {@code maxChars}. */
  public static ObjectMapper of(int maxDepth, int maxChars) {
    return new ObjectMapper(
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxNestingDepth(maxDepth)
                    .maxStringLength(maxChars)
                    .maxDocumentLength(maxChars)
                    .maxNumberLength(MAX_NUMBER_CHARS)
                    .build())
            .build());
  }
}
