/**
 * The reference device ({@code ref}): a naive interpreter that is the correctness oracle for every
 * other device.
 */
package dev.javelin.backend.reference;
