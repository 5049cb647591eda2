// Hand-written reference: y = A x for a matrix of `rows` rows in jagged diagonal storage
// (rows sorted by decreasing length: sorted row r is row perm[r] of A, with nzcnt[r]
// entries; diagonal d, entry d of every row that long, starts at jd_ptr[d]), one
// work-item a sorted row, its entries added in order into a double from 0.0 (no
// contraction: the generated kernel's sums, bit for bit).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void spmv_jds(__global const int* restrict perm, __global const int* restrict nzcnt,
                       __global const int* restrict jd_ptr, __global const double* restrict data,
                       __global const int* restrict idx, __global const double* restrict x,
                       __global double* restrict y, int rows) {
  int r = get_global_id(0);
  if (r >= rows) return;
  double s = 0.0;
  for (int d = 0; d < nzcnt[r]; d++) {
    int k = jd_ptr[d] + r;
    s = s + data[k] * x[idx[k]];
  }
  y[perm[r]] = s;
}
