// corpus: coordinate-format sweep that gathers from the vector it scatters into, y[ri[k]] += v[k] * y[ci[k]]
// near-miss: each entry reads values earlier entries of the same loop have updated: not a product with a fixed vector
// args: test=400 3 bench=300000 400
#include <stdio.h>
#include <stdlib.h>

/* coo_self_sweep: a Gauss-Seidel-like pass in coordinate order, y updated in place */
void coo_self_sweep(long nnz, const int *ri, const int *ci, const double *v, double *y)
{
    for (long k = 0; k < nnz; k++)   // expect-none: SpMV_COO
        y[ri[k]] += v[k] * y[ci[k]];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;
    long nnz = (long)n * 5;
    int *ri = malloc((size_t)nnz * sizeof *ri), *ci = malloc((size_t)nnz * sizeof *ci);
    double *v = malloc((size_t)nnz * sizeof *v), *y = malloc((size_t)n * sizeof *y);
    if (!ri || !ci || !v || !y)
        return 1;
    unsigned seed = 99u;
    for (long k = 0; k < nnz; k++) {
        seed = seed * 1664525u + 1013904223u;
        ri[k] = (int)((seed >> 9) % (unsigned)n);
        seed = seed * 1664525u + 1013904223u;
        ci[k] = (int)((seed >> 9) % (unsigned)n);
        v[k] = 0.01 * (double)(1 + (seed >> 5) % 5);
    }
    for (int i = 0; i < n; i++)
        y[i] = 1.0 / (double)(1 + i % 9);
    for (int it = 0; it < iters; it++)
        coo_self_sweep(nnz, ri, ci, v, y);
    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += y[i];
    printf("sum %.10g y[0] %.10g y[n-1] %.10g\n", cs, y[0], y[n - 1]);
    free(ri);
    free(ci);
    free(v);
    free(y);
    return 0;
}
