// direct: gemv_rows_scaled.c: gemv_scaled's loop nest as a cblas_dgemv call
// args: test=48 2 bench=2000 700
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* The distance, in elements, from each row to the next when the m row pointers lie
   equally spaced, ld >= n apart (one strided matrix BLAS can take); 0 otherwise. */
static int rows_ld(double **r, int m, int n)
{
    if (m < 1 || n < 1)
        return 0;
    if (m == 1)
        return n;
    long ld = r[1] - r[0];
    if (ld < n || ld > 2147483647L)
        return 0;
    for (int i = 2; i < m; i++)
        if (r[i] - r[0] != (long)i * ld)
            return 0;
    return (int)ld;
}

/* y = beta * y + alpha * A x, A given as m row pointers of length n. */
void gemv_scaled(int m, int n, double alpha, double **A, const double *x, double beta,
                 double *y)
{
    int lda = rows_ld(A, m, n);
    if (lda > 0) {
        cblas_dgemv(CblasRowMajor, CblasNoTrans, m, n, alpha, A[0], lda, x, 1, beta, y, 1);
        return;
    }
    for (int i = 0; i < m; i++) {
        y[i] = beta * y[i];
        for (int j = 0; j < n; j++)
            y[i] += alpha * A[i][j] * x[j];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    int m = n + n / 4, ld = n + 5;

    /* The rows live in one block, ld apart, each reached through its own pointer. */
    double *block = malloc((size_t)m * (size_t)ld * sizeof *block);
    double **A = malloc((size_t)m * sizeof *A);
    double *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)m * sizeof *y);
    if (!block || !A || !x || !y) return 1;
    for (int i = 0; i < m; i++) {
        A[i] = block + (size_t)i * (size_t)ld;
        for (int j = 0; j < ld; j++)
            A[i][j] = (double)((i * 5 + j * 9) % 23) / 23.0 - 0.3;
        y[i] = (double)(i % 4) - 1.0;
    }
    for (int j = 0; j < n; j++)
        x[j] = 0.5 + (double)(j % 7) / 14.0;

    /* beta = 0.75 lets the repetitions settle at y = 4 * alpha * A x. */
    for (int r = 0; r < reps; r++)
        gemv_scaled(m, n, 0.5, A, x, 0.75, y);

    double sum = 0.0, sq = 0.0;
    for (int i = 0; i < m; i++) {
        sum += y[i];
        sq += y[i] * y[i];
    }
    printf("m n = %d %d reps = %d\n", m, n, reps);
    printf("sum = %.10g\n", sum);
    printf("sq = %.10g\n", sq);
    printf("y[0] = %.10g\n", y[0]);
    printf("y[m-1] = %.10g\n", y[m - 1]);
    free(block); free(A); free(x); free(y);
    return 0;
}
