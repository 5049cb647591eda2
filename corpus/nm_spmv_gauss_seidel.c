// corpus: Gauss-Seidel sweeps on a CSR 2D Laplacian, with a CSR SpMV for the residual
// near-miss: the sweep updates x[i] in place, so later rows read values written earlier in the same sweep
// args: test=20 5 bench=600 200
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ROW(iy, ix, m) ((iy) * (m) + (ix))

/* gs_sweep: one forward Gauss-Seidel sweep for A x = b; every row holds its diagonal entry diag[i] */
void gs_sweep(int n, const int *rp, const int *ci, const double *v, const double *diag, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {   // expect-none: SpMV_CSR
        double s = 0.0;
        for (int j = rp[i]; j < rp[i + 1]; j++)   // expect: Reduction in gs_sweep
            s += v[j] * x[ci[j]];
        x[i] += (b[i] - s) / diag[i];
    }
}

/* csr_mv: y = A x */
void csr_mv(int n, const int *rp, const int *ci, const double *v, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {   // expect: SpMV_CSR in csr_mv
        double s = 0.0;
        for (int j = rp[i]; j < rp[i + 1]; j++)
            s += v[j] * x[ci[j]];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 100;
    int sweeps = argc > 2 ? atoi(argv[2]) : 20;
    if (m < 2)
        m = 2;
    if (sweeps < 1)
        sweeps = 1;
    int n = m * m;
    int *rp = malloc((size_t)(n + 1) * sizeof *rp), *ci = malloc((size_t)n * 5 * sizeof *ci);
    double *v = malloc((size_t)n * 5 * sizeof *v), *diag = malloc((size_t)n * sizeof *diag);
    double *b = malloc((size_t)n * sizeof *b), *x = calloc((size_t)n, sizeof *x), *ax = malloc((size_t)n * sizeof *ax);
    if (!rp || !ci || !v || !diag || !b || !x || !ax)
        return 1;
    int k = 0;
    rp[0] = 0;
    for (int iy = 0; iy < m; iy++)
        for (int ix = 0; ix < m; ix++) {
            int r = ROW(iy, ix, m);
            if (iy > 0) { ci[k] = ROW(iy - 1, ix, m); v[k++] = -1.0; }
            if (ix > 0) { ci[k] = ROW(iy, ix - 1, m); v[k++] = -1.0; }
            ci[k] = r; v[k++] = diag[r] = 4.0;
            if (ix < m - 1) { ci[k] = ROW(iy, ix + 1, m); v[k++] = -1.0; }
            if (iy < m - 1) { ci[k] = ROW(iy + 1, ix, m); v[k++] = -1.0; }
            rp[r + 1] = k;
            b[r] = (ix == m / 2 && iy == m / 2) ? 1.0 : 1.0 / (double)n;
        }

    double res = 0.0;
    for (int s = 0; s < sweeps; s++) {
        gs_sweep(n, rp, ci, v, diag, b, x);
        csr_mv(n, rp, ci, v, x, ax);
        double r2 = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            r2 += (b[i] - ax[i]) * (b[i] - ax[i]);
        res = sqrt(r2);
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i];
    printf("nnz %d\n", rp[n]);
    printf("residual %.6e sum x %.10g\n", res, cs);
    free(rp); free(ci); free(v); free(diag); free(b); free(x); free(ax);
    return 0;
}
