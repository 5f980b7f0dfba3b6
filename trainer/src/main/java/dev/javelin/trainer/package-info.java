/** Javelin trainer module. */
package dev.javelin.trainer;
