// Hand-written reference: y = A x for a CSR matrix of `rows` rows, one work-item a row,
// its entries added in order into a double from 0.0 (no contraction: the generated
// kernel's sums, bit for bit).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void spmv_csr(__global const int* restrict ptr, __global const double* restrict values,
                       __global const int* restrict cols, __global const double* restrict x,
                       __global double* restrict y, int rows) {
  int i = get_global_id(0);
  if (i >= rows) return;
  double s = 0.0;
  for (int k = ptr[i]; k < ptr[i + 1]; k++) s = s + values[k] * x[cols[k]];
  y[i] = s;
}
