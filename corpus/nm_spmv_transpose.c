// corpus: transposed product y = A^T x from a CSR matrix (scatter over the column indices of each row)
// near-miss: the row loop scatters into y[col[j]] instead of forming a row dot product, so the nest is not SpMV_CSR (its inner loop is a Histogram)
// args: test=400 3 bench=300000 300
#include <stdio.h>
#include <stdlib.h>

/* spmv_t: y += A^T x, A in CSR (rp, ci, v) with n rows */
void spmv_t(int n, const int *rp, const int *ci, const float *v, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {   // expect-none: SpMV_CSR
        float xi = x[i];
        for (int j = rp[i]; j < rp[i + 1]; j++)   // expect: Histogram in spmv_t
            y[ci[j]] += v[j] * xi;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 8)
        n = 8;
    if (iters < 1)
        iters = 1;

    int *rp = malloc((size_t)(n + 1) * sizeof *rp), *ci = malloc((size_t)n * 12 * sizeof *ci);
    float *v = malloc((size_t)n * 12 * sizeof *v);
    float *x = malloc((size_t)n * sizeof *x), *y = calloc((size_t)n, sizeof *y);
    if (!rp || !ci || !v || !x || !y)
        return 1;
    unsigned seed = 424242u;
    rp[0] = 0;
    for (int i = 0; i < n; i++) {
        int len = 4 + i % 9;   /* 4..12 entries */
        for (int e = 0; e < len; e++) {
            seed = seed * 1664525u + 1013904223u;
            ci[rp[i] + e] = (int)((seed >> 8) % (unsigned)n);
            v[rp[i] + e] = 0.125f * (float)(1 + e % 4);
        }
        rp[i + 1] = rp[i] + len;
    }
    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 8) * 0.125f;

    for (int it = 0; it < iters; it++)
        spmv_t(n, rp, ci, v, x, y);

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += y[i];
    printf("nnz %d\n", rp[n]);
    printf("y[0] %.10g y[n-1] %.10g sum %.10g\n", (double)y[0], (double)y[n - 1], cs);
    free(rp);
    free(ci);
    free(v);
    free(x);
    free(y);
    return 0;
}
