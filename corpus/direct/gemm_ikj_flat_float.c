// direct: gemm_ikj_flat_float.c: sgemm_acc's loop nest as a cblas_sgemm call
// args: test=40 bench=2048
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cblas.h>

/* C += A * B with A m x p, B p x n, C m x n, all row-major and contiguous. */
void sgemm_acc(size_t m, size_t n, size_t p,
               const float *restrict a, const float *restrict b, float *restrict c)
{
    if (m > 0 && n > 0 && p > 0)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, p,
                    1.0f, a, p, b, n, 1.0f, c, n);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 256;
    if (n < 4) n = 4;
    size_t m = n, p = n - n / 4;   /* rectangular: m x p times p x n */

    float *a = malloc(m * p * sizeof *a);
    float *b = malloc(p * n * sizeof *b);
    float *c = malloc(m * n * sizeof *c);
    if (!a || !b || !c) return 1;

    for (size_t i = 0; i < m; i++)
        for (size_t k = 0; k < p; k++)
            a[i * p + k] = (float)((i * 3 + k * 5) % 11) * 0.125f - 0.5f;
    for (size_t k = 0; k < p; k++)
        for (size_t j = 0; j < n; j++)
            b[k * n + j] = (float)((k * 7 + j) % 9) * 0.25f - 1.0f;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            c[i * n + j] = (float)((i + 2 * j) % 5);

    sgemm_acc(m, n, p, a, b, c);

    double sum = 0.0, asum = 0.0;
    for (size_t t = 0; t < m * n; t++) {
        sum += c[t];
        asum += fabs(c[t]);
    }
    printf("m n p = %zu %zu %zu\n", m, n, p);
    printf("sum = %.6e\n", sum);
    printf("asum = %.6e\n", asum);
    printf("c[n+1] = %.6e\n", (double)c[n + 1]);
    free(a); free(b); free(c);
    return 0;
}
