/** Javelin tests module. */
package dev.javelin.tests;
