/** The one bounds-checked little-endian codec under every Javelin wire format between actors. */
package dev.javelin.weightsync.wire;
