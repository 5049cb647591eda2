// direct: symm_columns_2d.c: symm_by_columns's loop nest as a cblas_dsymm call (RowMajor, Right, Upper, lda and ldb and ldc N)
// args: test=29 23 2 bench=700 640 2
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define M 700
#define N 640

static double C[M][N], A[N][N], B[M][N];

/* C <- alpha * B * A + beta * C over the leading m x n block of C and B, A symmetric
   (n x n) and read only from its upper triangle (row <= column). Column j of C takes
   beta times itself plus the sum over k of alpha A(k, j) B[i][k]: A(j, j) first, then
   the k above the diagonal (A[k][j]) and the k after it (A[j][k], the same element
   mirrored). Each column reads and writes only itself. */
void symm_by_columns(int m, int n, double alpha, double beta, double C[M][N], double A[N][N],
                     double B[M][N])
{
    if (m > 0 && n > 0)
        cblas_dsymm(CblasRowMajor, CblasRight, CblasUpper, m, n, alpha, &A[0][0], N, &B[0][0], N,
                    beta, &C[0][0], N);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 150;
    int n = argc > 2 ? atoi(argv[2]) : 120;
    int reps = argc > 3 ? atoi(argv[3]) : 2;
    if (m < 1) m = 1;
    if (m > M) m = M;
    if (n < 2) n = 2;
    if (n > N) n = N;
    if (reps < 1) reps = 1;

    /* the strictly upper triangle at most 1/n, the diagonal between 1 and 1.5; the
       strictly lower triangle holds a value the product must not read */
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            A[r][c] = c > r ? (double)((r * 7 + c * 5) % 23 + 1) / (23.0 * n)
                    : c == r ? 1.0 + (double)(r % 4) * 0.125
                    : -31.0 - (double)(r % 5);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            B[i][j] = 0.2 + (double)((i * 3 + j * 5) % 13) * 0.0625;
            C[i][j] = 0.75 + (double)((i + j * 2) % 9) * 0.05;
        }

    /* alpha * |A| < 1 and beta = 0.5: C stays bounded over the repetitions */
    for (int r = 0; r < reps; r++)
        symm_by_columns(m, n, 0.4, 0.5, C, A, B);

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            total += C[i][j];
            weighted += C[i][j] * (double)(1 + (2 * i + j) % 5);
        }
    /* the last row and the last column, whole (beyond the block where m, n are smaller) */
    double outside = 0.0;
    for (int j = 0; j < N; j++)
        outside += C[M - 1][j] + C[j][N - 1];

    printf("m n reps = %d %d %d\n", m, n, reps);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("border = %.10g\n", outside);
    printf("C[0][0] = %.10g  C[m/2][n/3] = %.10g  C[m-1][n-1] = %.10g\n",
           C[0][0], C[m / 2][n / 3], C[m - 1][n - 1]);
    return 0;
}
