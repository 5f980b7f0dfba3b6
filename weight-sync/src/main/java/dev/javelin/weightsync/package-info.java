/** Javelin weight-sync module. */
package dev.javelin.weightsync;
