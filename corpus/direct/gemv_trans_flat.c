// direct: gemv_trans_flat.c: sgemv_t's loop nest as a cblas_sgemv call
// args: test=64 2 bench=3000 400
// tolerance: 1e-4 (float32: each y[j] sums 4500 products, which OpenBLAS sgemv adds in another order; about 2e-6 apart seen)
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* y[0:n] += A^T x, A is m x n row-major with leading dimension lda. */
void sgemv_t(size_t m, size_t n, const float *restrict a, size_t lda,
             const float *restrict x, float *restrict y)
{
    if (m > 0 && n > 0)
        cblas_sgemv(CblasRowMajor, CblasTrans, m, n, 1.0f, a, lda, x, 1, 1.0f, y, 1);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 512;
    long reps = argc > 2 ? atol(argv[2]) : 4;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    size_t m = n + n / 2, lda = n + 3;

    float *a = malloc(m * lda * sizeof *a);
    float *x = malloc(m * sizeof *x);
    float *y = malloc(n * sizeof *y);
    if (!a || !x || !y) return 1;
    for (size_t i = 0; i < m; i++) {
        x[i] = (float)((i * 3) % 10) * 0.01f - 0.045f;
        for (size_t j = 0; j < lda; j++)
            a[i * lda + j] = (float)((i + j * 7) % 12) * 0.0625f - 0.3f;
    }
    /* y starts afresh at each repetition: accumulated over hundreds of them, float32
       sums drift apart with the order of the additions (BLAS adds in another order). */
    for (long r = 0; r < reps; r++) {
        for (size_t j = 0; j < n; j++)
            y[j] = (float)(j % 4) * 0.5f;
        sgemv_t(m, n, a, lda, x, y);
    }

    double sum = 0.0, alt = 0.0;
    for (size_t j = 0; j < n; j++) {
        sum += y[j];
        alt += (j & 1) ? -y[j] : y[j];
    }
    printf("m n = %zu %zu reps = %ld\n", m, n, reps);
    printf("sum = %.6e\n", sum);
    printf("alt = %.6e\n", alt);
    printf("y[1] = %.6e\n", (double)y[1]);
    free(a); free(x); free(y);
    return 0;
}
