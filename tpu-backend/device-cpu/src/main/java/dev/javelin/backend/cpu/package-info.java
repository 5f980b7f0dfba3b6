/**
 * The fast cpu device ({@code Devices.open("cpu")}). A program compiles in three passes: {@code
 * Fusion} decides which values are stored and which are computed inside a consumer's block loop,
 * {@code Planner} turns stored values into kernels (fused block programs, reductions with fused
 * operands, OpenBLAS gemms reading operands through strided views, index kernels), and {@code
 * BufferPlan} assigns reusable arrays by liveness.
 */
package dev.javelin.backend.cpu;
