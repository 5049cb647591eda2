// corpus: GEMV, a transposed update and a row dot product over one sweep of A (s += A^T r beside q = A p, as a BiCG step makes them), flat double arrays with a padded leading dimension, the dot product in a local, inside a two-sided power iteration for the largest singular value of a rectangular matrix
// args: test=40 29 3 bench=2000 1600 800
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

/* s = s + A^T r and q = A p in one pass over the n x m matrix A, stored by rows lda
   apart (lda >= m; the columns m .. lda-1 of each row are not part of A). */
void bicg_sweep(int n, int m, int lda, const double *A, const double *r, const double *p,
                double *s, double *q)
{
    for (int i = 0; i < n; i++) {              // expect: GEMV in bicg_sweep
        double t = 0.0;
        for (int j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i * lda + j];
            t += A[i * lda + j] * p[j];
        }
        q[i] = t;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int m = argc > 2 ? atoi(argv[2]) : 250;
    int iters = argc > 3 ? atoi(argv[3]) : 10;
    if (n < 2) n = 2;
    if (m < 2) m = 2;
    if (iters < 1) iters = 1;
    int lda = m + 5;

    double *A = malloc((size_t)n * lda * sizeof *A);
    double *r = malloc((size_t)n * sizeof *r);
    double *q = malloc((size_t)n * sizeof *q);
    double *p = malloc((size_t)m * sizeof *p);
    double *s = malloc((size_t)m * sizeof *s);
    if (!A || !r || !q || !p || !s) return 1;

    /* A: a positive smooth part (a clear largest singular value) plus a small integer
       pattern; the padding holds a huge value that would show if it were read. */
    unsigned lcg = 12345u;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            lcg = lcg * 1103515245u + 12345u;
            double noise = (double)((lcg >> 16) % 101) / 100.0 - 0.5;
            A[i * lda + j] = 1.0 + 0.5 * (double)((i + 2 * j) % 7) / 7.0 + 0.2 * noise;
        }
        for (int j = m; j < lda; j++)
            A[i * lda + j] = 1.0e30;
    }
    for (int i = 0; i < n; i++)
        r[i] = 1.0 / sqrt((double)n);
    for (int j = 0; j < m; j++)
        p[j] = (double)(j % 3 + 1) / sqrt((double)m * 14.0 / 3.0);

    /* Two-sided power iteration: s = A^T r and q = A p from the same sweep, then each
       normalised into the other's start vector (r from q, p from s). */
    double sig_q = 0.0, sig_s = 0.0;
    for (int it = 0; it < iters; it++) {
        for (int j = 0; j < m; j++)
            s[j] = 0.0;
        bicg_sweep(n, m, lda, A, r, p, s, q);
        double nq = 0.0, ns = 0.0;
        for (int i = 0; i < n; i++)            // expect: Reduction in main
            nq += q[i] * q[i];
        for (int j = 0; j < m; j++)            // expect: Reduction in main
            ns += s[j] * s[j];
        sig_q = sqrt(nq);
        sig_s = sqrt(ns);
        for (int i = 0; i < n; i++)   // expect: Map in main
            r[i] = q[i] / sig_q;
        for (int j = 0; j < m; j++)   // expect: Map in main
            p[j] = s[j] / sig_s;
    }

    double sr = 0.0, wr = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        sr += r[i];
        wr += r[i] * (double)(i % 5 + 1);
    }
    double sp = 0.0, wp = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        sp += p[j];
        wp += p[j] * (double)(j % 4 + 1);
    }
    printf("n m = %d %d iters = %d\n", n, m, iters);
    printf("sigma from q = %.10g sigma from s = %.10g\n", sig_q, sig_s);
    printf("r sum = %.10g weighted = %.10g\n", sr, wr);
    printf("p sum = %.10g weighted = %.10g\n", sp, wp);
    printf("r[0] = %.10g r[n-1] = %.10g p[0] = %.10g p[m-1] = %.10g\n",
           r[0], r[n - 1], p[0], p[m - 1]);
    free(A); free(r); free(q); free(p); free(s);
    return 0;
}
