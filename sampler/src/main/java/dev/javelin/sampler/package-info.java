/** Javelin sampler module. */
package dev.javelin.sampler;
