// Hand-written reference: 3D 7-point heat over the interior of an n^3 grid.
#pragma OPENCL FP_CONTRACT OFF
__kernel void heat3d(__global const double* restrict a, __global double* restrict b, int n) {
  int k = get_global_id(0) + 1, j = get_global_id(1) + 1, i = get_global_id(2) + 1;
  if (i >= n - 1 || j >= n - 1 || k >= n - 1) return;
  int p = n * n, c = i * p + j * n + k;
  b[c] = a[c] + 0.1 * ((((((a[c - p] + a[c + p]) + a[c - n]) + a[c + n]) + a[c - 1]) + a[c + 1]) - 6.0 * a[c]);
}
