package dev.javelin.backend.testing;

import dev.javelin.backend.DType;
import dev.javelin.backend.Shape;
import dev.javelin.backend.batch.TokenStats;
import dev.javelin.backend.graph.GraphBuilder;
import dev.javelin.backend.graph.Node;
import dev.javelin.backend.model.TokenLoss;

/**
 * A policy-gradient-shaped loss with its own input, {@code advantages} (B, T-1): {@code -mean(A ·
 * logp) - 0.01 · mean(H)}.
 */
public final class PgLoss implements TokenLoss {
  @Override
  public String name() {
    return "pg";
  }

  @Override
  public Node build(GraphBuilder g, TokenStats stats) {
    Shape s = stats.logp().shape();
    Node adv = g.parameter("advantages", DType.F32, s);
    Node n = g.scalar((double) s.size());
    Node pg = g.div(g.reduceSum(g.mul(adv, stats.logp()), 0, 1), n);
    Node ent = g.div(g.reduceSum(stats.entropy(), 0, 1), n);
    return g.neg(g.add(pg, g.mul(g.scalar(0.01), ent)));
  }
}
