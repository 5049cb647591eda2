// corpus: near-miss GEMV, row-by-row y = A*x that stops at the first row whose result exceeds a limit
// args: test=64 2 bench=2500 150
// near-miss: the outer loop returns early (data-dependent exit), so its trip count is not fixed before it starts
#include <stdio.h>
#include <stdlib.h>

/* y[i] = sum_j A[i][j] x[j] for rows until |y[i]| > limit; returns the number of rows done. */
int matvec_until(int n, const double *A, const double *x, double *y, double limit)
{
    for (int i = 0; i < n; i++) {             // expect-none: GEMV
        double s = 0.0;
        for (int j = 0; j < n; j++)           // expect: Reduction in matvec_until
            s += A[i * n + j] * x[j];
        y[i] = s;
        if (s > limit || s < -limit)
            return i + 1;
    }
    return n;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    size_t nn = (size_t)n * (size_t)n;

    double *A = malloc(nn * sizeof *A), *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!A || !x || !y) return 1;
    for (int i = 0; i < n; i++) {
        x[i] = 1.0;
        y[i] = -5.0;   /* rows never reached keep this value */
        /* row sums grow with i; the row near 0.9*n is the first beyond the limit */
        for (int j = 0; j < n; j++)
            A[i * n + j] = (double)((i + j) % 3 - 1) * 0.01 + (double)i / ((double)n * (double)n);
    }

    int done = 0;
    for (int r = 0; r < reps; r++)
        done = matvec_until(n, A, x, y, 0.9);

    double sum = 0.0;
    for (int i = 0; i < n; i++)               // expect: Reduction in main
        sum += y[i];
    printf("n = %d reps = %d\n", n, reps);
    printf("rows done = %d\n", done);
    printf("sum = %.10g\n", sum);
    return 0;
}
