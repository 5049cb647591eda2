// corpus: Landweber iteration x <- x + omega A^T (b - A x) on a rectangular matrix kept in per-row pointer tables: A x by rows, A^T r by scattering each row
// near-miss: the transposed product's row loop scatters y[c[j]] += v[j] * r[i] instead of forming a row dot product, so the nest is not SpMV_CSR (its inner loop is a Histogram)
// args: test=300 200 5 bench=240000 160000 200
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nrow, ncol;
    int *len;        /* entries in row i */
    double **vals;   /* row i's values, inside one block */
    int **cols;      /* row i's column indices, inside one block */
} RowTab;

/* rowtab_mv: y = A x (nrow entries) */
void rowtab_mv(const RowTab *A, const double *x, double *y)
{
    for (int i = 0; i < A->nrow; i++) {   // expect: SpMV_CSR in rowtab_mv
        const double *v = A->vals[i];
        const int *c = A->cols[i];
        int m = A->len[i];
        double sum = 0.0;
        for (int j = 0; j < m; j++)
            sum += v[j] * x[c[j]];
        y[i] = sum;
    }
}

/* rowtab_mv_t: y = A^T r (ncol entries), row by row */
void rowtab_mv_t(const RowTab *A, const double *r, double *y)
{
    for (int k = 0; k < A->ncol; k++)
        y[k] = 0.0;
    for (int i = 0; i < A->nrow; i++) {   // expect-none: SpMV_CSR
        const double *v = A->vals[i];
        const int *c = A->cols[i];
        int m = A->len[i];
        double ri = r[i];
        for (int j = 0; j < m; j++)   // expect: Histogram in rowtab_mv_t
            y[c[j]] += v[j] * ri;
    }
}

int main(int argc, char **argv)
{
    int nrow = argc > 1 ? atoi(argv[1]) : 3000;
    int ncol = argc > 2 ? atoi(argv[2]) : 2000;
    int iters = argc > 3 ? atoi(argv[3]) : 20;
    if (ncol < 4)
        ncol = 4;
    if (nrow < ncol)
        nrow = ncol;
    if (iters < 1)
        iters = 1;

    RowTab A;
    A.nrow = nrow;
    A.ncol = ncol;
    A.len = malloc((size_t)nrow * sizeof *A.len);
    A.vals = malloc((size_t)nrow * sizeof *A.vals);
    A.cols = malloc((size_t)nrow * sizeof *A.cols);
    double *vblock = malloc((size_t)nrow * 6 * sizeof *vblock);
    int *cblock = malloc((size_t)nrow * 6 * sizeof *cblock);
    double *x = calloc((size_t)ncol, sizeof *x), *g = malloc((size_t)ncol * sizeof *g);
    double *b = malloc((size_t)nrow * sizeof *b), *r = malloc((size_t)nrow * sizeof *r);
    if (!A.len || !A.vals || !A.cols || !vblock || !cblock || !x || !g || !b || !r)
        return 1;
    /* row i: 2..6 entries with values in [-1, 1], the first on column i mod ncol */
    unsigned s = 2463534242u;
    int pos = 0;
    for (int i = 0; i < nrow; i++) {
        s = s * 1103515245u + 12345u;
        int m = 2 + (int)((s >> 16) % 5u);
        A.len[i] = m;
        A.vals[i] = vblock + pos;
        A.cols[i] = cblock + pos;
        for (int j = 0; j < m; j++) {
            s = s * 1103515245u + 12345u;
            cblock[pos + j] = j == 0 ? i % ncol : (int)((s >> 8) % (unsigned)ncol);
            vblock[pos + j] = j == 0 ? 1.0 : (double)((int)((s >> 20) % 9u) - 4) / 4.0;
        }
        pos += m;
        s = s * 1103515245u + 12345u;
        b[i] = (double)((s >> 18) % 101u) / 50.0 - 1.0;
    }

    /* omega below 2 / |A|^2, |A|^2 <= max row sum * max column sum of |a_ij| */
    const double omega = 0.02;
    double res = 0.0;
    for (int it = 0; it < iters; it++) {
        rowtab_mv(&A, x, r);
        for (int i = 0; i < nrow; i++)   // expect: Map in main
            r[i] = b[i] - r[i];
        double rr = 0.0;
        for (int i = 0; i < nrow; i++)   // expect: Reduction in main
            rr += r[i] * r[i];
        res = sqrt(rr);
        rowtab_mv_t(&A, r, g);
        for (int k = 0; k < ncol; k++)   // expect: Map in main
            x[k] += omega * g[k];
    }

    double cs = 0.0, gn = 0.0;
    for (int k = 0; k < ncol; k++) {   // expect: Reduction in main
        cs += x[k];
        gn += g[k] * g[k];
    }
    printf("rows %d cols %d nnz %d\n", nrow, ncol, pos);
    printf("residual %.6e gradient %.6e\n", res, sqrt(gn));
    printf("sum x %.10g\n", cs);
    free(A.len); free(A.vals); free(A.cols); free(vblock); free(cblock);
    free(x); free(g); free(b); free(r);
    return 0;
}
