package dev.javelin.sampler.engine;

import dev.javelin.sampler.GenerationRequest;
import dev.javelin.sampler.Rollout;
import dev.javelin.sampler.sampling.TokenSampler;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a list of requests through a {@link TokenModel} with continuous batching: the first B
 * requests are prefilled together; after that every step feeds one token per busy row, and a row
 * whose request finishes takes the next waiting request at once (see {@link #refill}), so a long
 * tail never idles the batch. Once nothing waits and at most a quarter of the rows are busy, the
 * batch shrinks to the next power of two holding them (their caches move along), so the last long
 * responses stop paying for finished rows. Each request samples with its own seeded generator, so
 * its tokens do not depend on which row serves it.
 */
public final class ContinuousBatcher {
  /** Below this many rows a smaller batch saves too little to pay for moving the caches. */
  static final int MIN_ROWS_TO_SHRINK = 8;

  private final TokenModel model;
  private final long policyVersion;
  private final List<GenerationRequest> requests;
  private Slot[] rows;
  private final Rollout[] results;
  private int nextRequest;
  private int prefills;
  private int steps;
  private int compactions;

  private ContinuousBatcher(TokenModel model, List<GenerationRequest> requests, long version) {
    this.model = model;
    this.requests = requests;
    this.policyVersion = version;
    this.rows = new Slot[model.rows()];
    this.results = new Rollout[requests.size()];
  }

  /** The outcome: rollouts in request order plus how many model calls it took. */
  public record Outcome(List<Rollout> rollouts, int prefills, int decodeSteps, int compactions) {}

  /** Generates every request; rollouts come back in request order. */
  public static Outcome run(TokenModel model, List<GenerationRequest> requests, long version) {
    for (GenerationRequest r : requests) {
      if (r.promptLength() >= model.capacity()) {
        throw new IllegalArgumentException(
            "request "
                + r.requestId()
                + ": prompt of "
                + r.promptLength()
                + " tokens leaves no room in a cache of "
                + model.capacity()
                + " positions");
      }
    }
    ContinuousBatcher b = new ContinuousBatcher(model, requests, version);
    b.prefillFirstRows();
    b.refill();
    while (b.busy()) {
      b.step();
      b.refill();
      b.shrinkIfSparse();
    }
    return new Outcome(List.of(b.results), b.prefills, b.steps, b.compactions);
  }

  private void prefillFirstRows() {
    if (requests.isEmpty()) {
      return;
    }
    List<int[]> prompts = new ArrayList<>(rows.length);
    for (int r = 0; r < rows.length; r++) {
      rows[r] = admit();
      prompts.add(rows[r] == null ? new int[] {0} : rows[r].prompt());
    }
    float[] logits = model.prefill(prompts);
    prefills++;
    for (int r = 0; r < rows.length; r++) {
      if (rows[r] != null) {
        rows[r].advance(rows[r].promptLength());
        sample(r, logits, r);
      }
    }
  }

  /**
   * Gives free rows to waiting requests: when at least a quarter of the rows are free, their
   * prompts are prefilled as one batch and spliced into the cache; a few free rows instead take
   * their requests token by token, riding along with the next decode steps.
   */
  private void refill() {
    while (nextRequest < requests.size()) {
      List<Integer> free = new ArrayList<>();
      for (int r = 0; r < rows.length; r++) {
        if (rows[r] == null) {
          free.add(r);
        }
      }
      if (free.isEmpty()) {
        return;
      }
      if (free.size() < Math.max(1, rows.length / 4)) {
        free.forEach(r -> rows[r] = admit());
        return;
      }
      prefillInto(free);
    }
  }

  /** One batched prefill of the next waiting requests into {@code free} rows. */
  private void prefillInto(List<Integer> free) {
    int n = Math.min(free.size(), requests.size() - nextRequest);
    int[] targets = new int[n];
    List<int[]> prompts = new ArrayList<>(n);
    for (int j = 0; j < n; j++) {
      targets[j] = free.get(j);
      rows[targets[j]] = admit();
      prompts.add(rows[targets[j]].prompt());
    }
    float[] logits = model.prefillRows(targets, prompts); // (n, V)
    prefills++;
    for (int j = 0; j < n; j++) {
      Slot s = rows[targets[j]];
      s.advance(s.promptLength());
      sample(targets[j], logits, j);
    }
  }

  private void step() {
    int b = rows.length;
    int[] tokens = new int[b];
    int[] positions = new int[b];
    boolean[] active = new boolean[b];
    for (int r = 0; r < b; r++) {
      if (rows[r] != null) {
        tokens[r] = rows[r].nextToken();
        positions[r] = rows[r].position();
        active[r] = true;
      }
    }
    float[] logits = model.step(tokens, positions, active);
    steps++;
    for (int r = 0; r < b; r++) {
      if (active[r] && rows[r].advance(1)) {
        sample(r, logits, r);
      }
    }
  }

  /** Samples row r's next token from logits row {@code at}; a finished request frees row r. */
  private void sample(int r, float[] logits, int at) {
    Slot s = rows[r];
    int v = model.vocab();
    if (s.accept(TokenSampler.choose(logits, at * v, v, s.params, s.rng))) {
      results[s.index] = s.toRollout(policyVersion);
      rows[r] = null;
    }
  }

  /** Compacts the batch once the queue is empty and at most a quarter of the rows are busy. */
  private void shrinkIfSparse() {
    if (nextRequest < requests.size() || rows.length < MIN_ROWS_TO_SHRINK) {
      return;
    }
    int busy = 0;
    for (Slot s : rows) {
      busy += s == null ? 0 : 1;
    }
    if (busy == 0 || busy > rows.length / 4) {
      return;
    }
    int target = Integer.highestOneBit(busy) == busy ? busy : Integer.highestOneBit(busy) << 1;
    int[] keep = new int[target];
    Slot[] next = new Slot[target];
    int k = 0;
    for (int r = 0; r < rows.length && k < busy; r++) {
      if (rows[r] != null) {
        next[k] = rows[r];
        keep[k++] = r;
      }
    }
    for (int r = 0; k < target; r++) {
      if (rows[r] == null) {
        keep[k++] = r; // idle padding rows up to the power of two
      }
    }
    model.compact(keep);
    rows = next;
    compactions++;
  }

  private Slot admit() {
    if (nextRequest >= requests.size()) {
      return null;
    }
    int i = nextRequest++;
    GenerationRequest req = requests.get(i);
    int room = model.capacity() - req.promptLength();
    return new Slot(i, req, Math.min(req.params().maxResponseLength(), room));
  }

  private boolean busy() {
    for (Slot s : rows) {
      if (s != null) {
        return true;
      }
    }
    return false;
  }
}
