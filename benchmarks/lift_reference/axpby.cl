// Hand-written reference: w = a*x + b*y.
#pragma OPENCL FP_CONTRACT OFF
__kernel void axpby(__global const double* restrict x, __global const double* restrict y,
                    __global double* restrict w, double a, double b, int n) {
  int i = get_global_id(0);
  if (i < n) w[i] = a * x[i] + b * y[i];
}
