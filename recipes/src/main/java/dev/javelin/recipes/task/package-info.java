/**
 * Training and validation data for a recipe: datasets or synthetic tasks turned into prompted
 * examples.
 */
package dev.javelin.recipes.task;
