package dev.javelin.rewards.math;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** Inputs the fuzzer found that once threw, kept as plain tests beside the corpus entries. */
class FuzzFindingsTest {
  @Test
  void anUnclosedBeginIsTextNotAMatrix() {
    // threw StringIndexOutOfBoundsException in AnswerParser.matrix
    assertFalse(MathEquivalence.equivalent("\\begin{", "1"));
    assertFalse(MathEquivalence.equivalent("1", "\\begin{pmatrix"));
  }
}
