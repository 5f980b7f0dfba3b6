/**
 * The traced graph IR: sealed Op records, the builder, reverse-mode autodiff and rematerialisation.
 */
package dev.javelin.backend.graph;
