/**
 * Answer extraction and exact mathematical equivalence: boxed-answer scanning, VeRL and Minerva
 * normalisation, a small LaTeX expression parser and exact arithmetic over ℚ(√·, π).
 */
package dev.javelin.rewards.math;
