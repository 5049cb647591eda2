// direct: symm_right_2d.c: symm_right's loop nest as a cblas_dsymm call (RowMajor, Right, Lower, lda and ldb and ldc N)
// args: test=27 33 2 bench=560 640 12
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define M 560
#define N 640

static double C[M][N], A[N][N], B[M][N];

/* C <- alpha * B * A + beta * C over the leading m x n block of C and B, A symmetric
   (n x n) and read only from its lower triangle (k <= j): in row i, column j adds
   B[i][j] A[j][k] to the columns k before it, which are finished by then, and gives its
   own element the rest of its sum, B[i][k] A[j][k] over k < j and the diagonal's term. */
void symm_right(int m, int n, double alpha, double beta, double C[M][N], double A[N][N],
                double B[M][N])
{
    if (m > 0 && n > 0)
        cblas_dsymm(CblasRowMajor, CblasRight, CblasLower, m, n, alpha, &A[0][0], N, &B[0][0], N,
                    beta, &C[0][0], N);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 150;
    int n = argc > 2 ? atoi(argv[2]) : 200;
    int reps = argc > 3 ? atoi(argv[3]) : 2;
    if (m < 1) m = 1;
    if (m > M) m = M;
    if (n < 2) n = 2;
    if (n > N) n = N;
    if (reps < 1) reps = 1;

    /* the strictly lower triangle at most 1/n, the diagonal between 1 and 1.5 (a row of the
       symmetric matrix sums to less than 2.5); the strictly upper triangle holds a value
       the product must not read */
    for (int j = 0; j < N; j++)
        for (int k = 0; k < N; k++)
            A[j][k] = k < j ? (double)((j * 3 + k * 11) % 19 + 1) / (19.0 * n)
                    : k == j ? 1.0 + (double)(j % 5) * 0.125
                    : -45.0 - (double)(k % 3);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            B[i][j] = 0.25 + (double)((i * 4 + j * 7) % 17) * 0.05;
            C[i][j] = 0.5 + (double)((i * 5 + j) % 11) * 0.0625;
        }

    /* alpha * |A| < 1 and beta = 0.5: C stays bounded over the repetitions */
    for (int r = 0; r < reps; r++)
        symm_right(m, n, 0.375, 0.5, C, A, B);

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            total += C[i][j];
            weighted += C[i][j] * (double)(1 + (i + j * 3) % 7);
        }
    /* the last row and the first row, whole (beyond the block where m, n are smaller) */
    double outside = 0.0;
    for (int j = 0; j < N; j++)
        outside += C[M - 1][j] + C[0][N - 1 - j];

    printf("m n reps = %d %d %d\n", m, n, reps);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("border = %.10g\n", outside);
    printf("C[0][0] = %.10g  C[m/2][n/3] = %.10g  C[m-1][n-1] = %.10g\n",
           C[0][0], C[m / 2][n / 3], C[m - 1][n - 1]);
    return 0;
}
