// direct: syr2k_flat_float.c: ssyr2k_lower's loop nest as a cblas_ssyr2k call
// args: test=48 40 bench=1700 1900
// tolerance: 1e-4 (float32 sums of 3800 products, which OpenBLAS adds in another order)
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* C[0:n, 0:n] lower triangle; A and B are n x k with leading dimension ld, C has ldc. */
void ssyr2k_lower(int n, int k, float alpha, const float *a, const float *b, int ld,
                  float beta, float *c, int ldc)
{
    if (n > 0 && k > 0)
        cblas_ssyr2k(CblasRowMajor, CblasLower, CblasNoTrans, n, k, alpha, a, ld, b, ld, beta,
                     c, ldc);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    int k = argc > 2 ? atoi(argv[2]) : 160;
    if (n < 2) n = 2;
    if (k < 1) k = 1;
    int ld = k + 3, ldc = n + 5;
    float *a = malloc(sizeof(float) * (size_t)n * (size_t)ld);
    float *b = malloc(sizeof(float) * (size_t)n * (size_t)ld);
    float *c = malloc(sizeof(float) * (size_t)n * (size_t)ldc);
    if (!a || !b || !c) return 1;
    for (int t = 0; t < n * ld; t++) {
        a[t] = (float)((t * 7) % 31) / 31.0f - 0.5f;
        b[t] = (float)((t * 3 + 11) % 29) / 29.0f - 0.45f;
    }
    for (int t = 0; t < n * ldc; t++) c[t] = (float)((t * 5) % 17) / 17.0f - 0.5f;

    ssyr2k_lower(n, k, 0.25f, a, b, ld, 0.5f, c, ldc);

    double lower = 0.0, upper = 0.0, pad = 0.0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < ldc; j++) {
            double v = c[i * ldc + j];
            double w = (double)((i + 2 * j) % 5 + 1);
            lower += (j <= i) * v * w;
            upper += (j > i && j < n) * v * w;
            pad += (j >= n) * v;
        }
    }
    printf("n k = %d %d\n", n, k);
    printf("lower = %.6e\n", lower);
    printf("upper = %.6e\n", upper);
    printf("padding = %.6e\n", pad);
    printf("C[n-1][0] = %.6e\n", (double)c[(n - 1) * ldc]);
    free(a); free(b); free(c);
    return 0;
}
