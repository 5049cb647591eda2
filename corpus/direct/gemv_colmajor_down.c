// direct: gemv_colmajor_down.c: gemv_cm's loop nest as a cblas_sgemv call
// args: test=64 2 bench=3000 40
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* Column-major A (m x n, leading dimension lda): y[i] = sum_j A(i,j) x[j]. */
void gemv_cm(int m, int n, const float *A, int lda, const float *x, float *y)
{
    if (m > 0 && n > 0)
        cblas_sgemv(CblasColMajor, CblasNoTrans, m, n, 1.0f, A, lda, x, 1, 0.0f, y, 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    int m = n, lda = n;

    float *A = malloc((size_t)lda * (size_t)n * sizeof *A);
    float *x = malloc((size_t)n * sizeof *x);
    float *y = malloc((size_t)m * sizeof *y);
    if (!A || !x || !y) return 1;
    for (int j = 0; j < n; j++) {
        x[j] = (float)((j * 5) % 8) * 0.125f - 0.4f;
        for (int i = 0; i < m; i++)
            A[i + j * lda] = (float)((i * 9 + j * 4) % 21) / 21.0f - 0.45f;
    }

    for (int r = 0; r < reps; r++)
        gemv_cm(m, n, A, lda, x, y);

    double sum = 0.0, sq = 0.0;
    for (int i = 0; i < m; i++) {
        sum += y[i];
        sq += (double)y[i] * y[i];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("sum = %.6e\n", sum);
    printf("sumsq = %.6e\n", sq);
    printf("y[3] = %.6e\n", (double)y[3]);
    free(A); free(x); free(y);
    return 0;
}
