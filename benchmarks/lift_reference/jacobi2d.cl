// Hand-written reference: 2D 5-point Jacobi over the interior of an n x n grid.
#pragma OPENCL FP_CONTRACT OFF
__kernel void jacobi2d(__global const double* restrict a, __global double* restrict b, int n) {
  int j = get_global_id(0) + 1, i = get_global_id(1) + 1;
  if (i >= n - 1 || j >= n - 1) return;
  int c = i * n + j;
  b[c] = 0.2 * ((((a[c] + a[c - n]) + a[c + n]) + a[c - 1]) + a[c + 1]);
}
