// corpus: CSR SpMV through per-row pointer tables (HPCCG-style nnz_in_row / vals_in_row / inds_in_row into one contiguous block) on a 27-point 3D operator, implicit steps solved by a fixed number of conjugate-gradient iterations
// args: test=8 3 bench=56 50
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nrow;
    int *nnz_in_row;
    double **vals_in_row;   /* row i starts at vals_in_row[i], inside all_vals */
    int **inds_in_row;      /* row i's columns start at inds_in_row[i], inside all_inds */
    double *all_vals;
    int *all_inds;
} RowTableMatrix;

/* sparsemv: y = A x, each row read through its own pointers and length */
void sparsemv(const RowTableMatrix *A, const double *x, double *y)
{
    int i, j;
    double sum;
    for (i = 0; i < A->nrow; i++) {   // expect: SpMV_CSR in sparsemv
        sum = 0.0;
        const double *v = A->vals_in_row[i];
        const int *c = A->inds_in_row[i];
        int m = A->nnz_in_row[i];
        for (j = 0; j < m; j++)
            sum += v[j] * x[c[j]];
        y[i] = sum;
    }
}

/* ddot: the dot product of a and b */
double ddot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in ddot
        s += a[i] * b[i];
    return s;
}

/* waxpby: w = alpha x + beta y */
void waxpby(int n, double alpha, const double *x, double beta, const double *y, double *w)
{
    for (int i = 0; i < n; i++)   // expect: Map in waxpby
        w[i] = alpha * x[i] + beta * y[i];
}

/* 27 on the diagonal, -1 for every neighbour in the 3x3x3 block: rows packed one after
   the other in all_vals / all_inds, in row order */
static void build(RowTableMatrix *A, int nx, int ny, int nz)
{
    int n = nx * ny * nz;
    A->nrow = n;
    A->nnz_in_row = malloc((size_t)n * sizeof *A->nnz_in_row);
    A->vals_in_row = malloc((size_t)n * sizeof *A->vals_in_row);
    A->inds_in_row = malloc((size_t)n * sizeof *A->inds_in_row);
    A->all_vals = malloc((size_t)n * 27 * sizeof *A->all_vals);
    A->all_inds = malloc((size_t)n * 27 * sizeof *A->all_inds);
    double *cv = A->all_vals;
    int *ci = A->all_inds;
    for (int iz = 0; iz < nz; iz++)
        for (int iy = 0; iy < ny; iy++)
            for (int ix = 0; ix < nx; ix++) {
                int row = (iz * ny + iy) * nx + ix, cnt = 0;
                A->vals_in_row[row] = cv;
                A->inds_in_row[row] = ci;
                for (int sz = -1; sz <= 1; sz++)
                    for (int sy = -1; sy <= 1; sy++)
                        for (int sx = -1; sx <= 1; sx++) {
                            int jz = iz + sz, jy = iy + sy, jx = ix + sx;
                            if (jz < 0 || jz >= nz || jy < 0 || jy >= ny || jx < 0 || jx >= nx)
                                continue;
                            int colidx = (jz * ny + jy) * nx + jx;
                            *cv++ = colidx == row ? 27.0 : -1.0;
                            *ci++ = colidx;
                            cnt++;
                        }
                A->nnz_in_row[row] = cnt;
            }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 20;
    int steps = argc > 2 ? atoi(argv[2]) : 10;
    const int cg_iters = 8;
    if (m < 2)
        m = 2;
    if (steps < 1)
        steps = 1;

    RowTableMatrix A;
    build(&A, m, m, m + 2);
    int n = A.nrow;
    double *u = malloc((size_t)n * sizeof *u), *b = malloc((size_t)n * sizeof *b);
    double *r = malloc((size_t)n * sizeof *r), *p = malloc((size_t)n * sizeof *p);
    double *ap = malloc((size_t)n * sizeof *ap);
    if (!u || !b || !r || !p || !ap)
        return 1;
    unsigned s = 1u;
    for (int i = 0; i < n; i++) {
        s = s * 69069u + 1u;
        u[i] = (double)(s >> 24) / 256.0;
    }

    /* implicit steps: solve A u_new = u_old (A: 27 on the diagonal, -1 per neighbour), CG for cg_iters iterations from u_old */
    double rtrans = 0.0, normr0 = 1.0;
    for (int t = 0; t < steps; t++) {
        waxpby(n, 1.0, u, 0.0, u, b);
        sparsemv(&A, u, ap);
        waxpby(n, 1.0, b, -1.0, ap, r);
        waxpby(n, 1.0, r, 0.0, r, p);
        rtrans = ddot(n, r, r);
        normr0 = sqrt(rtrans);
        for (int k = 0; k < cg_iters; k++) {
            sparsemv(&A, p, ap);
            double alpha = rtrans / ddot(n, p, ap);
            waxpby(n, 1.0, u, alpha, p, u);
            waxpby(n, 1.0, r, -alpha, ap, r);
            double oldrtrans = rtrans;
            rtrans = ddot(n, r, r);
            waxpby(n, 1.0, r, rtrans / oldrtrans, p, p);
        }
    }

    double cs = 0.0, sq = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        cs += u[i];
        sq += u[i] * u[i];
    }
    printf("rows %d nnz %d\n", n, (int)(A.inds_in_row[n - 1] + A.nnz_in_row[n - 1] - A.all_inds));
    printf("last step residual reduction %.6e\n", sqrt(rtrans) / normr0);
    printf("sum u %.10g |u| %.10g\n", cs, sqrt(sq));
    free(A.nnz_in_row); free(A.vals_in_row); free(A.inds_in_row); free(A.all_vals); free(A.all_inds);
    free(u); free(b); free(r); free(p); free(ap);
    return 0;
}
