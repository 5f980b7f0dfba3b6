/** Javelin recipes module. */
package dev.javelin.recipes;
