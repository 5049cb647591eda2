// corpus: CSR SpMV through a struct (long row offsets, int columns, bounds in struct fields) inside a Jacobi solver
// args: test=30 20 bench=700 600
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nrows;
    long *rowstart; /* nrows + 1 offsets */
    int *colind;
    double *value;
} CsrMatrix;

/* csr_apply: y = A x for the matrix held in *A */
void csr_apply(const CsrMatrix *A, const double *x, double *y)
{
    for (int r = 0; r < A->nrows; r++) {   // expect: SpMV_CSR in csr_apply
        double acc = 0.0;
        for (long k = A->rowstart[r]; k < A->rowstart[r + 1]; k++)
            acc += A->value[k] * x[A->colind[k]];
        y[r] = acc;
    }
}

/* 5-point Laplacian plus a shift on an m x m grid, rows in natural order */
static CsrMatrix laplacian(int m)
{
    CsrMatrix A;
    A.nrows = m * m;
    A.rowstart = malloc((size_t)(A.nrows + 1) * sizeof *A.rowstart);
    A.colind = malloc((size_t)A.nrows * 5 * sizeof *A.colind);
    A.value = malloc((size_t)A.nrows * 5 * sizeof *A.value);
    long k = 0;
    A.rowstart[0] = 0;
    for (int iy = 0; iy < m; iy++)
        for (int ix = 0; ix < m; ix++) {
            int r = iy * m + ix;
            if (iy > 0) { A.colind[k] = r - m; A.value[k++] = -1.0; }
            if (ix > 0) { A.colind[k] = r - 1; A.value[k++] = -1.0; }
            A.colind[k] = r;
            A.value[k++] = 4.02;
            if (ix < m - 1) { A.colind[k] = r + 1; A.value[k++] = -1.0; }
            if (iy < m - 1) { A.colind[k] = r + m; A.value[k++] = -1.0; }
            A.rowstart[r + 1] = k;
        }
    return A;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 100;
    int iters = argc > 2 ? atoi(argv[2]) : 50;
    if (m < 2)
        m = 2;
    if (iters < 1)
        iters = 1;

    CsrMatrix A = laplacian(m);
    int n = A.nrows;
    double *x = calloc((size_t)n, sizeof *x), *ax = malloc((size_t)n * sizeof *ax);
    double *rhs = malloc((size_t)n * sizeof *rhs);
    if (!x || !ax || !rhs)
        return 1;
    for (int i = 0; i < n; i++)
        rhs[i] = 1.0 + 0.5 * sin(0.1 * (double)i);

    /* Jacobi: x <- x + (rhs - A x) / diag, diag = 4.02 */
    double res = 0.0;
    for (int it = 0; it < iters; it++) {
        csr_apply(&A, x, ax);
        double r2 = 0.0;
        for (int i = 0; i < n; i++) {   // expect: Reduction in main
            double d = rhs[i] - ax[i];
            r2 += d * d;
        }
        res = sqrt(r2);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] += (rhs[i] - ax[i]) / 4.02;
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i];
    printf("nnz %ld\n", A.rowstart[n]);
    printf("residual %.6e checksum %.10g\n", res, cs);
    free(A.rowstart);
    free(A.colind);
    free(A.value);
    free(x);
    free(ax);
    free(rhs);
    return 0;
}
