// corpus: Gauss-Seidel sweeps on an ELLPACK matrix (row-major, padded), with an ELLPACK SpMV for the residual
// near-miss: the sweep writes x[i] in the row loop that gathers x[col[..]], so later rows read values written earlier in the same sweep
// args: test=500 7 4 bench=200000 9 300
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ell_gs_sweep: one forward Gauss-Seidel sweep for A x = b; slot 0 of every row is its
   diagonal, the padding holds 0 at the row itself */
void ell_gs_sweep(int n, int w, const double *val, const int *col, const double *b, double *x)
{
    for (int i = 0; i < n; i++) {   // expect-none: SpMV_ELL
        double s = 0.0;
        for (int j = 0; j < w; j++)   // expect: Reduction in ell_gs_sweep
            s += val[i * w + j] * x[col[i * w + j]];
        x[i] += (b[i] - s) / val[i * w];
    }
}

/* ell_residual_mv: y = A x */
void ell_residual_mv(int n, int w, const double *val, const int *col, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {   // expect: SpMV_ELL in ell_residual_mv
        double s = 0.0;
        for (int j = 0; j < w; j++)
            s += val[i * w + j] * x[col[i * w + j]];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    int w = argc > 2 ? atoi(argv[2]) : 7;
    int sweeps = argc > 3 ? atoi(argv[3]) : 10;
    if (n < 16)
        n = 16;
    if (w < 3)
        w = 3;
    if (sweeps < 1)
        sweeps = 1;

    double *val = malloc((size_t)n * w * sizeof *val);
    int *col = malloc((size_t)n * w * sizeof *col);
    double *b = malloc((size_t)n * sizeof *b), *x = calloc((size_t)n, sizeof *x);
    double *ax = malloc((size_t)n * sizeof *ax);
    if (!val || !col || !b || !x || !ax)
        return 1;
    /* row i: the diagonal, its two neighbours, then up to w - 3 entries within 100 rows */
    unsigned s = 8675309u;
    for (int i = 0; i < n; i++) {
        double off = 0.0;
        for (int j = 1; j < w; j++) {
            int p = i * w + j, c;
            s = s * 1664525u + 1013904223u;
            if (j == 1)
                c = i > 0 ? i - 1 : -1;
            else if (j == 2)
                c = i < n - 1 ? i + 1 : -1;
            else
                c = (s >> 28) < 5u ? -1 : (int)((i + n - 100 + (int)((s >> 8) % 201u)) % n);
            if (c < 0 || c == i) {
                col[p] = i;
                val[p] = 0.0;
            } else {
                col[p] = c;
                val[p] = -(double)(1 + (s >> 4) % 8u) / 8.0;
                off -= val[p];
            }
        }
        col[i * w] = i;
        val[i * w] = off + 0.01;
        s = s * 1664525u + 1013904223u;
        b[i] = (double)((s >> 20) % 200u) / 100.0 - 1.0;
    }

    double res = 0.0;
    for (int sw = 0; sw < sweeps; sw++) {
        ell_gs_sweep(n, w, val, col, b, x);
        ell_residual_mv(n, w, val, col, x, ax);
        double r2 = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            r2 += (b[i] - ax[i]) * (b[i] - ax[i]);
        res = sqrt(r2);
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += x[i];
    printf("n %d width %d\n", n, w);
    printf("residual %.6e sum x %.10g\n", res, cs);
    free(val); free(col); free(b); free(x); free(ax);
    return 0;
}
