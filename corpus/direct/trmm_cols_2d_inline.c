// direct: trmm_cols_2d_inline.c: kernel_trmm_cols's loop nest as a cblas_dtrmm call (Left, Upper, NoTrans, NonUnit)
// args: test=1 bench=10
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define M 1000
#define N 900

static double A[M][M], B[M][N];

/* B <- alpha * A * B in place, A upper triangular (k >= i, diagonal included); the
   strictly lower triangle of A is never read. Column by column: row i reads the rows
   below it in the column, which the rows counting up have not updated yet. */
static void kernel_trmm_cols(int m, int n, double alpha, double A[M][M], double B[M][N])
{
    if (m > 0 && n > 0)
        cblas_dtrmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, m, n,
                    alpha, &A[0][0], M, &B[0][0], N);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* the diagonal between 1.5 and 2, the upper triangle at most 1/M, the strictly lower
       triangle large: the product must not read it */
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = k > i ? (double)((i * 3 + k * 13) % 19 + 1) / (19.0 * M)
                    : k == i ? 2.0 - (double)(i % 5) * 0.125
                    : 40.0 + (double)(k % 3);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 0.25 + (double)((i * 3 + j * 5) % 23) * 0.04;

    /* alpha * A's diagonal is at most one: B stays bounded over the repetitions */
    for (int r = 0; r < reps; r++)
        kernel_trmm_cols(M, N, 0.5, A, B);

    const double *b = &B[0][0];
    double total = 0.0, weighted = 0.0;
    for (int t = 0; t < M * N; t++) {
        total += b[t];
        weighted += b[t] * (double)(1 + t % 6);
    }
    double first_col = 0.0;
    for (int i = 0; i < M; i++)
        first_col += B[i][0] * (double)(1 + i % 4);

    printf("m n reps = %d %d %d\n", M, N, reps);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("first column = %.10g\n", first_col);
    printf("B[0][0] = %.10g  B[M/2][N/3] = %.10g  B[M-1][N-1] = %.10g\n",
           B[0][0], B[M / 2][N / 3], B[M - 1][N - 1]);
    return 0;
}
