// direct: syrk_upper_flat_float.c: ssyrk_upper's loop nest as a cblas_ssyrk call
// args: test=48 40 bench=1800 2200
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* The upper triangle (j >= i, diagonal included) of C = alpha * A * A^T + beta * C, where
   A is n x k with leading dimension lda and C is n x n with leading dimension ldc, both
   row-major; the strictly lower triangle of C is neither read nor written. */
void ssyrk_upper(int n, int k, float alpha, const float *a, int lda, float beta, float *c, int ldc)
{
    if (n > 0)
        cblas_ssyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, k,
                    alpha, a, lda, beta, c, ldc);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int k = argc > 2 ? atoi(argv[2]) : 200;
    if (n < 4) n = 4;
    if (k < 1) k = 1;
    int lda = k + 3, ldc = n + 5;

    float *a = malloc((size_t)n * (size_t)lda * sizeof *a);
    float *c = malloc((size_t)n * (size_t)ldc * sizeof *c);
    if (!a || !c) return 1;

    /* positive entries, so that the checksums add without cancelling; the padding
       columns hold other values, which a product must never read */
    for (int i = 0; i < n; i++)
        for (int p = 0; p < lda; p++)
            a[i * lda + p] = p < k ? 0.05f + (float)((i * 7 + p * 3) % 17) * 0.03125f : 100.0f;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < ldc; j++)
            c[i * ldc + j] = j < n ? 0.5f + (float)((i * 3 + j * 5) % 9) * 0.125f : -7.0f;

    ssyrk_upper(n, k, 0.75f, a, lda, 0.5f, c, ldc);

    /* the upper triangle, the strictly lower one (unchanged) and the padding separately */
    double upper = 0.0, wupper = 0.0, lower = 0.0, pad = 0.0;
    for (long t = 0; t < (long)n * ldc; t++) {
        long i = t / ldc, j = t % ldc;
        double in_upper = (double)(j >= i && j < n);
        double in_lower = (double)(j < i);
        upper += in_upper * c[t];
        wupper += in_upper * c[t] * (double)(1 + t % 5);
        lower += in_lower * c[t];
        pad += (1.0 - in_upper - in_lower) * c[t];
    }
    printf("n k = %d %d\n", n, k);
    printf("upper = %.10g\n", upper);
    printf("weighted upper = %.10g\n", wupper);
    printf("lower = %.10g\n", lower);
    printf("padding = %.10g\n", pad);
    printf("c[0][n-1] = %.6e  c[n-1][n-1] = %.6e\n", (double)c[n - 1], (double)c[(long)(n - 1) * ldc + n - 1]);
    free(a); free(c);
    return 0;
}
