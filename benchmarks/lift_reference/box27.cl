// Hand-written reference: 3D 27-point box average over the interior of an n^3 grid.
#pragma OPENCL FP_CONTRACT OFF
__kernel void box27(__global const double* restrict a, __global double* restrict b, int n) {
  int k = get_global_id(0) + 1, j = get_global_id(1) + 1, i = get_global_id(2) + 1;
  if (i >= n - 1 || j >= n - 1 || k >= n - 1) return;
  int p = n * n, c = i * p + j * n + k;
  double s = 0.0;
  for (int di = -1; di <= 1; di++)
    for (int dj = -1; dj <= 1; dj++)
      for (int dk = -1; dk <= 1; dk++)
        s = s + a[c + di * p + dj * n + dk];
  b[c] = s * (1.0 / 27.0);
}
