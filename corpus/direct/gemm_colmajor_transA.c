// direct: gemm_colmajor_transA.c: gemm_tn's loop nest as a cblas_dgemm call
// args: test=40 bench=1300
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* Column-major: C(i,j) = sum_l A(l,i) * B(l,j); A is k x m, B is k x n, C is m x n. */
void gemm_tn(int m, int n, int k, const double *A, int lda,
             const double *B, int ldb, double *C, int ldc)
{
    if (m > 0 && n > 0)
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, n, k,
                    1.0, A, lda, B, ldb, 0.0, C, ldc);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 4) n = 4;
    int m = n, k = n;
    int lda = k, ldb = k + 1, ldc = m;   /* B has one padding row per column */

    double *A = malloc((size_t)lda * m * sizeof *A);
    double *B = malloc((size_t)ldb * n * sizeof *B);
    double *C = malloc((size_t)ldc * n * sizeof *C);
    if (!A || !B || !C) return 1;

    for (int i = 0; i < m; i++)
        for (int l = 0; l < lda; l++)
            A[l + i * lda] = (double)((3 * l + 2 * i) % 10) * 0.1 - 0.45;
    for (int j = 0; j < n; j++)
        for (int l = 0; l < ldb; l++)
            B[l + j * ldb] = l < k ? (double)((l + 5 * j) % 7) * 0.2 - 0.6 : 99.0;

    gemm_tn(m, n, k, A, lda, B, ldb, C, ldc);

    double sum = 0.0, diag = 0.0;
    for (long t = 0; t < (long)ldc * n; t++)
        sum += C[t] * (double)(1 + t % 3);
    for (int i = 0; i < n; i++)
        diag += C[i + i * ldc];
    printf("n = %d\n", n);
    printf("weighted sum = %.10g\n", sum);
    printf("trace = %.10g\n", diag);
    printf("C(2,5) = %.10g\n", C[2 + 5 * ldc]);
    free(A); free(B); free(C);
    return 0;
}
