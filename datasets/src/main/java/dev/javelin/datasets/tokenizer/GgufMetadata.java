package dev.javelin.datasets.tokenizer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Typed, checked access to a GGUF metadata map as a GGUF reader hands it over: String, Long (every
 * integer type), Double, Boolean, and {@code List<Object>} for arrays. Errors name the key.
 */
record GgufMetadata(Map<String, Object> values) {
  GgufMetadata {
    values = Map.copyOf(values);
  }

  String string(String key) {
    return optionalString(key)
        .orElseThrow(
            () -> new IllegalArgumentException(key + " is missing from the GGUF metadata"));
  }

  Optional<String> optionalString(String key) {
    return typed(key, String.class);
  }

  Optional<Boolean> optionalBool(String key) {
    return typed(key, Boolean.class);
  }

  /** A token id, checked against the vocabulary size. */
  Optional<Integer> tokenId(String key, int vocabSize) {
    Optional<Long> id = typed(key, Long.class);
    id.ifPresent(
        v -> {
          if (v < 0 || v >= vocabSize) {
            throw new IllegalArgumentException(
                key + " = " + v + " is outside the vocabulary [0, " + vocabSize + ")");
          }
        });
    return id.map(Long::intValue);
  }

  List<String> strings(String key) {
    List<?> list =
        typed(key, List.class)
            .orElseThrow(
                () -> new IllegalArgumentException(key + " is missing from the GGUF metadata"));
    if (list.size() > TokenizerJsonReader.MAX_VOCAB) {
      throw new IllegalArgumentException(
          key + " has more than " + TokenizerJsonReader.MAX_VOCAB + " entries");
    }
    List<String> out = new ArrayList<>(list.size());
    for (Object v : list) {
      if (!(v instanceof String s)) {
        throw new IllegalArgumentException(key + "[" + out.size() + "] must be a string");
      }
      out.add(s);
    }
    return out;
  }

  /** An integer array of exactly {@code size} entries, or an empty list when the key is absent. */
  List<Long> optionalLongs(String key, int size) {
    Optional<List<?>> list = typed(key, List.class).map(l -> (List<?>) l);
    if (list.isEmpty()) {
      return List.of();
    }
    if (list.get().size() != size) {
      throw new IllegalArgumentException(
          key + " has " + list.get().size() + " entries for " + size + " tokens");
    }
    List<Long> out = new ArrayList<>(size);
    for (Object v : list.get()) {
      if (!(v instanceof Long l)) {
        throw new IllegalArgumentException(key + "[" + out.size() + "] must be an integer");
      }
      out.add(l);
    }
    return out;
  }

  private <T> Optional<T> typed(String key, Class<T> type) {
    Object v = values.get(key);
    if (v == null) {
      return Optional.empty();
    }
    if (!type.isInstance(v)) {
      throw new IllegalArgumentException(
          key + " must be a " + type.getSimpleName() + ", got " + v.getClass().getSimpleName());
    }
    return Optional.of(type.cast(v));
  }
}
