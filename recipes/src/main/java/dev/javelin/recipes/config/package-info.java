/**
 * Recipes read once: the key schema, Hydra-style overrides, and the validating config records every
 * other package receives.
 */
package dev.javelin.recipes.config;
