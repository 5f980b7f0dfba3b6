/** Javelin tpu-backend module. */
package dev.javelin.backend;
