// corpus: CSR SpMV (float, long indices, y[i] accumulated in place) on a pseudo-random row-stochastic matrix
// args: test=400 4 bench=400000 60
#include <stdio.h>
#include <stdlib.h>

static unsigned long lcg_state = 88172645ul;
static unsigned lcg(void)
{
    lcg_state = lcg_state * 6364136223846793005ul + 1442695040888963407ul;
    return (unsigned)(lcg_state >> 33);
}

/* spmv_csr_f: y = A x, the sum built directly in y[i] */
void spmv_csr_f(long nrows, const long *rowptr, const long *colidx, const float *vals, const float *x, float *y)
{
    for (long i = 0; i < nrows; i++) {   // expect: SpMV_CSR in spmv_csr_f
        y[i] = 0.0f;
        for (long k = rowptr[i]; k < rowptr[i + 1]; k++)
            y[i] += vals[k] * x[colidx[k]];
    }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10000;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    long *rowptr = malloc((size_t)(n + 1) * sizeof *rowptr);
    long *colidx = malloc((size_t)n * 24 * sizeof *colidx);
    float *vals = malloc((size_t)n * 24 * sizeof *vals);
    float *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    if (!rowptr || !colidx || !vals || !a || !b)
        return 1;
    rowptr[0] = 0;
    for (long i = 0; i < n; i++) {
        long len = 4 + (long)(lcg() % 21u);   /* 4..24 entries, columns at random */
        for (long k = 0; k < len; k++) {
            colidx[rowptr[i] + k] = (long)(lcg() % (unsigned)n);
            vals[rowptr[i] + k] = 1.0f / (float)len;   /* each row sums to about 1 */
        }
        rowptr[i + 1] = rowptr[i] + len;
    }
    for (long i = 0; i < n; i++)
        a[i] = (float)(i % 100) * 0.01f;

    /* x <- A x, ping-ponging between a and b */
    for (int it = 0; it < iters; it++) {
        spmv_csr_f(n, rowptr, colidx, vals, a, b);
        spmv_csr_f(n, rowptr, colidx, vals, b, a);
    }

    double cs = 0.0;
    for (long i = 0; i < n; i++)   // expect: Reduction in main
        cs += a[i];
    printf("nnz %ld\n", rowptr[n]);
    printf("a[0] %.6e a[n-1] %.6e checksum %.6e\n", (double)a[0], (double)a[n - 1], cs);
    free(rowptr);
    free(colidx);
    free(vals);
    free(a);
    free(b);
    return 0;
}
