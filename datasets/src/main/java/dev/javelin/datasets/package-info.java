/** Javelin datasets module. */
package dev.javelin.datasets;
