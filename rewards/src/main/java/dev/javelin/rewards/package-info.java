/** Javelin rewards module. */
package dev.javelin.rewards;
