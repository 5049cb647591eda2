// direct: gemm_kji_transposed.c: atb_kij's and atb_kji's loop nests as cblas_dgemm calls with A transposed
// args: test=40 bench=1000
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* C(m x n) += A^T B, where A is p x m and B is p x n (row-major, leading dimensions):
   k outermost, then rows of C; the inner loop runs along row k of B. */
void atb_kij(int m, int n, int p, const double *A, int lda, const double *B, int ldb,
             double *C, int ldc)
{
    if (m > 0 && n > 0)
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, p,
                    1.0, A, lda, B, ldb, 1.0, C, ldc);
}

/* The same product scaled by alpha, k then columns of C; the inner loop runs down column j
   of C and along row k of A. */
void atb_kji(int m, int n, int p, double alpha, const double *A, int lda,
             const double *B, int ldb, double *C, int ldc)
{
    if (m > 0 && n > 0)
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, p,
                    alpha, A, lda, B, ldb, 1.0, C, ldc);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    int m = n + 9, p = n + n / 2;
    int lda = m + 3, ldb = n, ldc = n + 2;

    double *A = malloc((size_t)p * (size_t)lda * sizeof *A);
    double *B = malloc((size_t)p * (size_t)ldb * sizeof *B);
    double *C1 = malloc((size_t)m * (size_t)ldc * sizeof *C1);
    double *C2 = malloc((size_t)m * (size_t)ldc * sizeof *C2);
    if (!A || !B || !C1 || !C2) return 1;

    for (int k = 0; k < p; k++) {
        for (int i = 0; i < lda; i++)
            A[k * lda + i] = (double)((k * 5 + i * 3) % 21) / 21.0 - 0.5;
        for (int j = 0; j < ldb; j++)
            B[k * ldb + j] = (double)((k * 2 + j * 7) % 16) / 16.0 - 0.45;
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldc; j++) {
            C1[i * ldc + j] = (double)((i * 3 + j) % 8) * 0.5 - 2.0;
            C2[i * ldc + j] = (double)((i + j * 5) % 6) - 2.5;
        }

    atb_kij(m, n, p, A, lda, B, ldb, C1, ldc);
    atb_kji(m, n, p, -0.5, A, lda, B, ldb, C2, ldc);

    double s1 = 0.0, s2 = 0.0, w1 = 0.0, w2 = 0.0;
    for (long t = 0; t < (long)m * ldc; t++) {
        double w = (double)(t % 9) - 4.0;
        s1 += C1[t];
        s2 += C2[t];
        w1 += C1[t] * w;
        w2 += C2[t] * w;
    }
    printf("m n p = %d %d %d\n", m, n, p);
    printf("C1 sum = %.10g  weighted = %.10g\n", s1, w1);
    printf("C2 sum = %.10g  weighted = %.10g\n", s2, w2);
    printf("C1[1][2] = %.10g  C2[m-1][n-1] = %.10g\n", C1[1 * ldc + 2], C2[(m - 1) * ldc + n - 1]);
    free(A); free(B); free(C1); free(C2);
    return 0;
}
