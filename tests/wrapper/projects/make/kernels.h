#ifndef KERNELS_H
#define KERNELS_H
void smooth(int n, const double *in, double *out);
double dot(int n, const double *x, const double *y);
#endif
