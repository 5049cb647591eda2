// Hand-written reference: y = A x for a matrix of `rows` rows in ELLPACK storage by
// columns (entry j of row i at j * rows + i, w entries a row, padded with zeros at column
// 0), one work-item a row, its entries, padding included, added in order into a double
// from 0.0 (no contraction: the generated kernel's sums, bit for bit).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void spmv_ell(__global const double* restrict values, __global const int* restrict cols,
                       __global const double* restrict x, __global double* restrict y, int rows,
                       int w) {
  int i = get_global_id(0);
  if (i >= rows) return;
  double s = 0.0;
  for (int j = 0; j < w; j++) {
    int k = j * rows + i;
    s = s + values[k] * x[cols[k]];
  }
  y[i] = s;
}
