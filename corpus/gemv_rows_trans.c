// corpus: GEMV, y = alpha*A^T x with pointer-to-pointer rows, i outer (y[j] += alpha*A[i][j]*x[i]), y cleared in the kernel, double
// args: test=64 2 bench=2500 200
#include <stdio.h>
#include <stdlib.h>

/* y[0:n] = alpha * A^T x, A given as m row pointers of length n. */
void gemv_rows_t(int m, int n, double alpha, double **A, const double *x, double *y)
{
    for (int j = 0; j < n; j++)
        y[j] = 0.0;
    for (int i = 0; i < m; i++) {              // expect: GEMV in gemv_rows_t
        double ax = alpha * x[i];
        for (int j = 0; j < n; j++)
            y[j] += A[i][j] * ax;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    int m = n;

    double **A = malloc((size_t)m * sizeof *A);
    double *x = malloc((size_t)m * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    if (!A || !x || !y) return 1;
    for (int i = 0; i < m; i++) {
        A[i] = malloc((size_t)n * sizeof **A);
        if (!A[i]) return 1;
        x[i] = (double)(i % 11) / 11.0 - 0.3;
        for (int j = 0; j < n; j++)
            A[i][j] = (double)((i * 6 + j * 13) % 27) / 27.0 - 0.5;
    }

    for (int r = 0; r < reps; r++)
        gemv_rows_t(m, n, 2.0, A, x, y);

    double sum = 0.0, wsum = 0.0;
    for (int j = 0; j < n; j++) {              // expect: Reduction in main
        sum += y[j];
        wsum += y[j] * x[j];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("y[n-1] = %.10g\n", y[n - 1]);
    for (int i = 0; i < m; i++) free(A[i]);
    free(A); free(x); free(y);
    return 0;
}
