// direct: trmm_ikj_nonunit_2d.c: dtrmm_ikj_upper's loop nest as a cblas_dtrmm call (Left, Upper, NoTrans, NonUnit)
// args: test=1 bench=4
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define M 1500
#define N 1400

static double A[M][M], B[M][N];

/* B <- U * B in place, U the upper triangle of A (diagonal included; the strictly lower
   triangle never read). Row i is scaled by A[i][i], then adds A[i][k] times each row k
   below it, which the rows counting up have not updated yet. */
static void dtrmm_ikj_upper(int m, int n, double A[M][M], double B[M][N])
{
    if (m > 0 && n > 0)
        cblas_dtrmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, m, n,
                    1.0, &A[0][0], M, &B[0][0], N);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* the diagonal between 0.5 and 0.75 and the strictly upper triangle of either sign at
       most 1/(4M) (a row of U sums to less than one in absolute value: B stays bounded
       over the repetitions); the strictly lower triangle large, never to be read */
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = k > i ? ((double)((i * 13 + k * 7) % 31) - 12.0) / (4.0 * 31.0 * M)
                    : k == i ? 0.5 + (double)(i % 5) * 0.0625
                    : 70.0 + (double)(k % 7);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 1.0 + (double)((i * 11 + j * 3) % 29) * 0.03125;

    for (int r = 0; r < reps; r++)
        dtrmm_ikj_upper(M, N, A, B);

    const double *b = &B[0][0];
    double total = 0.0, weighted = 0.0;
    for (int t = 0; t < M * N; t++) {
        total += b[t];
        weighted += b[t] * (double)(1 + t % 9);
    }
    printf("m n reps = %d %d %d\n", M, N, reps);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("B[0][0] = %.10g  B[M/2][N/3] = %.10g  B[M-1][N-1] = %.10g\n",
           B[0][0], B[M / 2][N / 3], B[M - 1][N - 1]);
    return 0;
}
