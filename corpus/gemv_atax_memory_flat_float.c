// corpus: GEMV, a row dot product and then a transposed update by it over each row of A (tmp = A x, then y += A^T tmp: the atax kernel), float, flat arrays indexed A[i*lda + j] with a padded leading dimension, plain pointer parameters (no restrict: tmp[i] is kept in memory, stored by the dot product and read back by every trip of the update), inside a power iteration for the largest eigenvalue of A^T A
// args: test=41 33 3 bench=2400 2000 640
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

/* y = y + A^T (A x) for the n x m matrix A stored by rows lda apart (lda >= m), one row
   at a time: tmp[i] = A(i, :) x, then that row scaled by tmp[i] added into y. */
void atax(int n, int m, int lda, const float *A, const float *x, float *tmp, float *y)
{
    for (int i = 0; i < n; i++) {              // expect: GEMV in atax
        tmp[i] = 0.0f;
        for (int j = 0; j < m; j++)
            tmp[i] = tmp[i] + A[i * lda + j] * x[j];
        for (int j = 0; j < m; j++)
            y[j] = y[j] + A[i * lda + j] * tmp[i];
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
    int lda = m + 3;

    float *A = malloc((size_t)n * lda * sizeof *A);
    float *x = malloc((size_t)m * sizeof *x);
    float *y = malloc((size_t)m * sizeof *y);
    float *tmp = malloc((size_t)n * sizeof *tmp);
    if (!A || !x || !y || !tmp) return 1;

    /* positive entries scaled by 1/sqrt(n m), so that A^T A has a clear largest
       eigenvalue of order one; the padding holds a value that would show if read */
    float scale = 1.0f / sqrtf((float)n * (float)m);
    unsigned lcg = 777u;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            lcg = lcg * 1664525u + 1013904223u;
            float w = (float)((lcg >> 22) % 16) / 16.0f;
            A[(size_t)i * lda + j] = scale * (0.75f + 0.5f * w + 0.25f * (float)((i + j) % 3));
        }
        for (int j = m; j < lda; j++)
            A[(size_t)i * lda + j] = 1.0e20f;
    }
    for (int j = 0; j < m; j++)
        x[j] = (float)(1 + j % 6) / (3.5f * sqrtf((float)m));

    /* power iteration: y = A^T A x, the eigenvalue estimate x . y (x of unit length),
       then x = y / |y| */
    double lambda = 0.0;
    for (int it = 0; it < iters; it++) {
        for (int j = 0; j < m; j++)
            y[j] = 0.0f;
        atax(n, m, lda, A, x, tmp, y);
        float xy = 0.0f, yy = 0.0f;
        for (int j = 0; j < m; j++) {          // expect: Reduction in main
            xy += x[j] * y[j];
            yy += y[j] * y[j];
        }
        lambda = xy;
        float inv = 1.0f / sqrtf(yy);
        for (int j = 0; j < m; j++)   // expect: Map in main
            x[j] = y[j] * inv;
    }

    double st = 0.0, wt = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        st += tmp[i];
        wt += tmp[i] * (double)(i % 7 + 1);
    }
    double sx = 0.0, wx = 0.0;
    for (int j = 0; j < m; j++) {              // expect: Reduction in main
        sx += x[j];
        wx += x[j] * (double)(j % 5 + 1);
    }
    printf("n m = %d %d iters = %d\n", n, m, iters);
    printf("largest eigenvalue of A^T A = %.6e\n", lambda);
    printf("tmp sum = %.6e weighted = %.6e\n", st, wt);
    printf("x sum = %.6e weighted = %.6e\n", sx, wx);
    printf("x[0] = %.6e x[m-1] = %.6e tmp[0] = %.6e tmp[n-1] = %.6e\n",
           x[0], x[m - 1], tmp[0], tmp[n - 1]);
    free(A); free(x); free(y); free(tmp);
    return 0;
}
