// direct: gemv_alphabeta_macro.c: dgemv_n's loop nest as a cblas_dgemv call
// args: test=50 3 bench=2500 200
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define A(i, j) a[(i) * lda + (j)]

/* y[0:m] = alpha * A(0:m,0:n) x + beta * y. */
void dgemv_n(long m, long n, double alpha, const double *a, long lda,
             const double *x, double beta, double *y)
{
    if (m > 0 && n > 0)
        cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, alpha, a, lda, x, 1, beta, y, 1);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 400;
    long reps = argc > 2 ? atol(argv[2]) : 5;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    long m = n - 1, lda = n + 16;

    double *big = malloc((size_t)((m + 2) * lda) * sizeof *big);
    double *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)m * sizeof *y);
    if (!big || !x || !y) return 1;
    for (long t = 0; t < (m + 2) * lda; t++)
        big[t] = (double)((t * 7) % 31) / 31.0 - 0.5;
    for (long j = 0; j < n; j++)
        x[j] = (double)(j % 9) / 9.0;
    for (long i = 0; i < m; i++)
        y[i] = (double)(i % 5) - 2.0;

    const double *sub = big + lda + 8;   /* block starting at row 1, column 8 */
    for (long r = 0; r < reps; r++)
        dgemv_n(m, n, 0.5, sub, lda, x, 0.25, y);

    double sum = 0.0, mx = 0.0;
    for (long i = 0; i < m; i++) {
        sum += y[i];
        mx = y[i] > mx ? y[i] : mx;
    }
    printf("m n = %ld %ld reps = %ld\n", m, n, reps);
    printf("sum = %.10g\n", sum);
    printf("max = %.10g\n", mx);
    printf("y[m-1] = %.10g\n", y[m - 1]);
    free(big); free(x); free(y);
    return 0;
}
