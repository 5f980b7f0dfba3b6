package dev.javelin.backend.model;

import dev.javelin.backend.graph.Node;

/**
 * What a layer attends over, given the keys and values of the tokens being processed: the tokens
 * themselves (full forward), those plus a cache write (prefill), or an updated cache (decode).
 */
@FunctionalInterface
public interface KvPolicy {

  /** Keys and values to attend over, each (B, Hkv, S, Dh). */
  record Kv(Node keys, Node values) {}

  /**
   * @param layer layer index
   * @param keys new keys (B, Hkv, T, Dh), rotary already applied
   * @param values new values (B, Hkv, T, Dh)
   */
  Kv apply(int layer, Node keys, Node values);

  /** Attend over the new tokens only. */
  KvPolicy SELF = (layer, k, v) -> new Kv(k, v);
}
