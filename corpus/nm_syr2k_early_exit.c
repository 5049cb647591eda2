// corpus: near-miss SYR2K, coupling-style strict upper triangles whose row loop runs to the last row: an antisymmetric (wedge) coupling whose two products are subtracted, and a symmetric one whose row loop leaves at a row limit of its own
// args: test=40 30 bench=1250 900
// near-miss: wedge_coupling subtracts the second product (P[i][k] Q[j][k] - Q[i][k] P[j][k]) and mirrors the negated sum: a skew-symmetric rank-2k update, which no BLAS routine computes; coupling_rows_limited leaves the row loop once i + 1 reaches lim, a limit of its own that need not be the triangle's size, so the nest is no strict triangle. The j loops store the mirror too (no GEMV) and their inner dot products are Reductions
#include <stdio.h>
#include <stdlib.h>

/* w[i][j] = sum_k p[i][k] q[j][k] - q[i][k] p[j][k] for j > i, w[j][i] = -w[i][j], and a
   zero diagonal: the antisymmetric part of p q^T, twice. */
void wedge_coupling(int n, int m, const double *p, const double *q, double *w)
{
    for (int i = 0; i < n; i++) {              // expect-none: SYR2K
        w[i * n + i] = 0.0;
        for (int j = i + 1; j < n; j++) {      // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < m; k++)        // expect: Reduction in wedge_coupling
                s += p[i * m + k] * q[j * m + k] - q[i * m + k] * p[j * m + k];
            w[i * n + j] = s;
            w[j * n + i] = -s;
        }
    }
}

/* The symmetric coupling, but only for the rows before the row limit lim. */
void coupling_rows_limited(int n, int m, int lim, const double *p, const double *q, double *e)
{
    /* not a strict triangle: the row loop leaves at lim, not where the triangle ends */
    for (int i = 0; i < n; i++) {              // expect-none: SYR2K
        e[i * n + i] = 0.0;
        if (i + 1 >= lim)
            break;
        for (int j = i + 1; j < n; j++) {      // expect-none: GEMV
            double s = 0.0;
            for (int k = 0; k < m; k++)        // expect: Reduction in coupling_rows_limited
                s += p[i * m + k] * q[j * m + k] + q[i * m + k] * p[j * m + k];
            e[i * n + j] = s;
            e[j * n + i] = s;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    int m = argc > 2 ? atoi(argv[2]) : 150;
    if (n < 2) n = 2;
    if (m < 1) m = 1;
    double *p = malloc(sizeof(double) * (size_t)n * (size_t)m);
    double *q = malloc(sizeof(double) * (size_t)n * (size_t)m);
    double *w = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *e = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (!p || !q || !w || !e) return 1;
    for (int t = 0; t < n * m; t++) {
        p[t] = (double)((t * 7 + 3) % 29) / 29.0 - 0.5;
        q[t] = (double)((t * 5 + 1) % 31) / 31.0 - 0.45;
    }
    for (int t = 0; t < n * n; t++)
        e[t] = -1.0;

    wedge_coupling(n, m, p, q, w);
    coupling_rows_limited(n, m, n - n / 3, p, q, e);

    /* the strict upper triangles, weighted; the wedge's lower one must be its negative */
    double wup = 0.0, wanti = 0.0, eup = 0.0, elow = 0.0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {          // expect: Reduction in main
            double up = (double)(j > i), weight = (double)(1 + (2 * i + j) % 7);
            wup += up * w[i * n + j] * weight;
            wanti += w[i * n + j] + w[j * n + i];
            eup += up * e[i * n + j] * weight;
            elow += (1.0 - up) * e[i * n + j];
        }
    }
    printf("n m = %d %d\n", n, m);
    printf("wedge weighted strict upper = %.10g\n", wup);
    printf("wedge plus its transpose = %.10g\n", wanti);
    printf("limited weighted strict upper = %.10g\n", eup);
    printf("limited lower and diagonal = %.10g\n", elow);
    free(p); free(q); free(w); free(e);
    return 0;
}
