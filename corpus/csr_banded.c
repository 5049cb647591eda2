// corpus: CSR SpMV (double, int indices, row sum in a local then stored) in a power iteration on a banded matrix
// args: test=500 5 bench=500000 600
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* spmv_csr: y = A x for the n-row CSR matrix (row_ptr, col, val) */
void spmv_csr(int n, const int *row_ptr, const int *col, const double *val, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {   // expect: SpMV_CSR in spmv_csr
        double sum = 0.0;
        for (int j = row_ptr[i]; j < row_ptr[i + 1]; j++)
            sum += val[j] * x[col[j]];
        y[i] = sum;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int iters = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 8)
        n = 8;
    if (iters < 1)
        iters = 1;

    /* bands at offsets -7, -1, 0, +1, +7, cut at the matrix edges */
    const int offs[5] = { -7, -1, 0, 1, 7 };
    int *row_ptr = malloc((size_t)(n + 1) * sizeof *row_ptr);
    int *col = malloc((size_t)n * 5 * sizeof *col);
    double *val = malloc((size_t)n * 5 * sizeof *val);
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!row_ptr || !col || !val || !x || !y)
        return 1;
    int nnz = 0;
    row_ptr[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int b = 0; b < 5; b++) {
            int c = i + offs[b];
            if (c < 0 || c >= n)
                continue;
            col[nnz] = c;
            val[nnz] = offs[b] == 0 ? 4.0 + (double)(i % 3) : -1.0 / (1.0 + (double)((i + c) % 5));
            nnz++;
        }
        row_ptr[i + 1] = nnz;
    }
    for (int i = 0; i < n; i++)
        x[i] = 1.0 + (double)(i % 11) * 0.1;

    double lambda = 0.0;
    for (int it = 0; it < iters; it++) {
        spmv_csr(n, row_ptr, col, val, x, y);
        double s = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            s += y[i] * y[i];
        lambda = sqrt(s);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] = y[i] / lambda;
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += fabs(x[i]);
    printf("nnz %d\n", nnz);
    printf("lambda %.10g checksum %.10g\n", lambda, cs);
    free(row_ptr);
    free(col);
    free(val);
    free(x);
    free(y);
    return 0;
}
