// corpus: GEMV, textbook y = A*x summed in y[i] itself (memory accumulator), fixed-size 2D array parameters double A[N][N], static kernel inlined into main, arrays carved from one work array
// args: test=64 2 bench=2000 1000
#include <stdio.h>
#include <stdlib.h>

#define N 2000

/* y = A x over the leading n x n block. A, x and y may share storage as far as the
   compiler knows, so the running sum lives in y[i]. */
static void kernel_mv(int n, double A[N][N], double x[N], double y[N])
{
    for (int i = 0; i < n; i++) {              // expect: GEMV in kernel_mv
        y[i] = 0.0;
        for (int j = 0; j < n; j++)
            y[i] = y[i] + A[i][j] * x[j];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 2) n = 2;
    if (n > N) n = N;
    if (reps < 1) reps = 1;

    /* One work array holds the matrix and both vectors, in the old style. */
    double *work = malloc(((size_t)N * N + 2 * (size_t)N) * sizeof *work);
    if (!work) return 1;
    double (*A)[N] = (double (*)[N])work;
    double *x = work + (size_t)N * N;
    double *y = x + N;

    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 9 + 1) / 9.0;
        for (int j = 0; j < n; j++)
            A[i][j] = (double)((i * 7 + j * 3) % 31) / 31.0 - 0.25;
    }

    /* The product is recomputed from scratch each time (y is overwritten). */
    for (int r = 0; r < reps; r++)
        kernel_mv(n, A, x, y);

    double sum = 0.0, sq = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        sum += y[i];
        sq += y[i] * y[i];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("sum = %.10g\n", sum);
    printf("sq = %.10g\n", sq);
    printf("y[0] = %.10g\n", y[0]);
    printf("y[n-1] = %.10g\n", y[n - 1]);
    free(work);
    return 0;
}
