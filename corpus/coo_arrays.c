// corpus: power iteration with a matrix in coordinate storage (COO) kept as three arrays, y[ri[k]] += v[k] * x[ci[k]]
// args: test=400 3 bench=300000 250
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* coo_gaxpy: y += A x for the nnz entries (ri[k], ci[k], v[k]) of A, in any order */
void coo_gaxpy(long nnz, const int *ri, const int *ci, const double *v, const double *x,
               double *y)
{
    for (long k = 0; k < nnz; k++)   // expect: SpMV_COO in coo_gaxpy
        y[ri[k]] += v[k] * x[ci[k]];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;
    long nnz = (long)n * 7;
    int *ri = malloc((size_t)nnz * sizeof *ri), *ci = malloc((size_t)nnz * sizeof *ci);
    double *v = malloc((size_t)nnz * sizeof *v);
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!ri || !ci || !v || !x || !y)
        return 1;
    unsigned seed = 12345u;
    for (long k = 0; k < nnz; k++) {
        seed = seed * 1664525u + 1013904223u;
        ri[k] = (int)((seed >> 9) % (unsigned)n);
        seed = seed * 1664525u + 1013904223u;
        ci[k] = (int)((seed >> 9) % (unsigned)n);
        v[k] = 0.125 * (double)(1 + (seed >> 5) % 7);
    }
    for (int i = 0; i < n; i++)
        x[i] = 1.0;

    double norm = 0.0;
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < n; i++)
            y[i] = 0.0;
        coo_gaxpy(nnz, ri, ci, v, x, y);
        double s = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            s += y[i] * y[i];
        norm = sqrt(s);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] = y[i] / norm;
    }
    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i];
    printf("norm %.10g\n", norm);
    printf("sum %.10g x[0] %.10g x[n-1] %.10g\n", cs, x[0], x[n - 1]);
    free(ri);
    free(ci);
    free(v);
    free(x);
    free(y);
    return 0;
}
