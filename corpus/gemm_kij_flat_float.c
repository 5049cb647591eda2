// corpus: GEMM, k-i-j (outer-product) order C = alpha*A*B + beta*C, float, flat arrays with computed indices and leading dimensions, beta applied by a separate nest first
// args: test=40 bench=2600
#include <stdio.h>
#include <stdlib.h>

/* C(m x n) = alpha * A(m x p) * B(p x n) + beta * C, row-major, leading dimensions lda/ldb/ldc.
   C is scaled first; then every k adds the outer product of column k of A and row k of B. */
void sgemm_kij(int m, int n, int p, float alpha, const float *a, int lda,
               const float *b, int ldb, float beta, float *c, int ldc)
{
    for (int i = 0; i < m; i++)   // expect: Map in sgemm_kij
        for (int j = 0; j < n; j++)
            c[i * ldc + j] *= beta;

    for (int k = 0; k < p; k++) {              // expect: GEMM in sgemm_kij
        for (int i = 0; i < m; i++) {
            float a_ik = alpha * a[i * lda + k];
            for (int j = 0; j < n; j++)
                c[i * ldc + j] += a_ik * b[k * ldb + j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 4) n = 4;
    int m = n + 6, p = n - n / 5;
    int lda = p + 3, ldb = n + 1, ldc = n + 4;

    float *a = malloc((size_t)m * (size_t)lda * sizeof *a);
    float *b = malloc((size_t)p * (size_t)ldb * sizeof *b);
    float *c = malloc((size_t)m * (size_t)ldc * sizeof *c);
    if (!a || !b || !c) return 1;

    /* padding columns too: they must come out unchanged */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < lda; k++)
            a[i * lda + k] = (float)((i * 5 + k * 3) % 16) * 0.0625f - 0.5f;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < ldb; j++)
            b[k * ldb + j] = (float)((k * 3 + j * 7) % 12) * 0.125f - 0.75f;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldc; j++)
            c[i * ldc + j] = (float)((i + j * 2) % 9) * 0.25f - 1.0f;

    sgemm_kij(m, n, p, 0.5f, a, lda, b, ldb, 2.0f, c, ldc);

    double sum = 0.0, wsum = 0.0;
    for (long t = 0; t < (long)m * ldc; t++) {   // expect: Reduction in main
        sum += c[t];
        wsum += c[t] * (double)(t % 11 - 5);
    }
    double diag = 0.0;
    for (int i = 0; i < n; i++)                 // expect: Reduction in main
        diag += c[i * ldc + i];
    printf("m n p = %d %d %d\n", m, n, p);
    printf("sum = %.6e\n", sum);
    printf("wsum = %.6e\n", wsum);
    printf("diag = %.6e\n", diag);
    printf("c[2][3] = %.6e\n", (double)c[2 * ldc + 3]);
    free(a); free(b); free(c);
    return 0;
}
