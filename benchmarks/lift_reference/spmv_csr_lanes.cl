// Hand-written reference: y = A x for a CSR matrix of `rows` rows, LANES work-items a row
// (LANES a power of two dividing the work-group): lane k adds the row's entries k,
// k + LANES, ... in order into a double from 0.0, then the row's lanes fold their sums in
// local memory, halving at each step. The loads of a row's values and columns coalesce
// across its lanes; the sums are reassociated (not the one-lane kernel's bits).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#ifndef LANES
#define LANES 32
#endif
__kernel void spmv_csr_lanes(__global const int* restrict ptr,
                             __global const double* restrict values,
                             __global const int* restrict cols,
                             __global const double* restrict x,
                             __global double* restrict y, int rows,
                             __local double* sums) {
  int lid = get_local_id(0);
  int lane = lid & (LANES - 1);
  int row = get_global_id(0) / LANES;
  double s = 0.0;
  if (row < rows) {
    int end = ptr[row + 1];
    for (int k = ptr[row] + lane; k < end; k += LANES) s = s + values[k] * x[cols[k]];
  }
  sums[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int step = LANES / 2; step > 0; step /= 2) {
    if (lane < step) sums[lid] = sums[lid] + sums[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lane == 0 && row < rows) y[row] = sums[lid];
}
