// Hand-written reference: the partial sums of a dot product, one per work-group of 128
// (each work-item strides over the vectors, then a tree in local memory).
#pragma OPENCL FP_CONTRACT OFF
__kernel void dot_partials(__global const double* restrict x, __global const double* restrict y,
                  __global double* restrict partial, int n) {
  __local double l[128];
  int lid = get_local_id(0);
  double s = 0.0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) s = s + x[i] * y[i];
  l[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 64; k > 0; k >>= 1) {
    if (lid < k) l[lid] = l[lid] + l[lid + k];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = l[0];
}
