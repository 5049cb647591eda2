// corpus: GEMV, transposed update y += A^T x with i outer (y[j] += A[i][j]*x[i]), float, fixed-size 2D array parameters float A[M][N], no restrict, one kernel called twice with different vectors
// args: test=64 2 bench=2000 4000
// tolerance: 1e-4 (float32: each y[j] sums 1500 products, which OpenBLAS sgemv adds in another order; about 2e-6 apart seen)
#include <stdio.h>
#include <stdlib.h>

#define M 1536
#define N 2048

static float amat[M][N];
static float xa[M], xb[M], ya[N], yb[N];

/* y[0:n] += A^T x over the leading m x n block of A: row i of A, scaled by x[i], is
   added into y. */
void gemv_tupdate(int m, int n, float A[M][N], const float x[M], float y[N])
{
    for (int i = 0; i < m; i++) {              // expect: GEMV in gemv_tupdate
        for (int j = 0; j < n; j++)
            y[j] += A[i][j] * x[i];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (n > N) n = N;
    if (reps < 1) reps = 1;
    int m = n - n / 4;

    for (int i = 0; i < m; i++) {
        xa[i] = (float)(i % 8) * 0.125f - 0.25f;
        xb[i] = 1.0f / (float)(i % 16 + 1);
        for (int j = 0; j < n; j++)
            amat[i][j] = (float)((i * 3 + j * 10) % 21) / 21.0f - 0.4f;
    }

    /* Two products with the same matrix; ya and yb start afresh at each repetition, so
       float rounding does not pile up over the repetitions. */
    for (int r = 0; r < reps; r++) {
        for (int j = 0; j < n; j++) {
            ya[j] = (float)(j % 3);
            yb[j] = 1.0f;
        }
        gemv_tupdate(m, n, amat, xa, ya);
        gemv_tupdate(m, n, amat, xb, yb);
    }

    double sa = 0.0, sb = 0.0, q = 0.0;
    for (int j = 0; j < n; j++) {              // expect: Reduction in main
        sa += ya[j];
        sb += yb[j];
        q += (double)ya[j] * yb[j];
    }
    printf("m n = %d %d reps = %d\n", m, n, reps);
    printf("sum ya = %.10g\n", sa);
    printf("sum yb = %.10g\n", sb);
    printf("ya.yb = %.10g\n", q);
    printf("ya[1] yb[n-1] = %.10g %.10g\n", (double)ya[1], (double)yb[n - 1]);
    return 0;
}
