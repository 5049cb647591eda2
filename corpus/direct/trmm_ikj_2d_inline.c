// direct: trmm_ikj_2d_inline.c: kernel_trmm_ikj's loop nest as a cblas_dtrmm call (Left, Lower, Trans, Unit)
// args: test=1 bench=2
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define M 2000
#define N 1800

static double A[M][M], B[M][N];

/* B <- L^T * B in place, L the unit lower triangle of A (the diagonal taken as one, the
   strictly upper triangle never read): row i adds A[k][i] times each row k below it,
   which the rows counting up have not updated yet. */
static void kernel_trmm_ikj(int m, int n, double A[M][M], double B[M][N])
{
    if (m > 0 && n > 0)
        cblas_dtrmm(CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, m, n,
                    1.0, &A[0][0], M, &B[0][0], N);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* the strictly lower triangle at most 1/(2M) (a column of L sums to less than 1/2, so
       B grows by less than 3/2 a repetition), the diagonal and the upper triangle large:
       the product must not read them */
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = k < i ? (double)((i * 11 + k * 5) % 23 + 1) / (46.0 * M)
                    : k == i ? 12.0 : -30.0 - (double)(k % 4);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 0.25 + (double)((i * 7 + j * 3) % 17) * 0.05;

    for (int r = 0; r < reps; r++)
        kernel_trmm_ikj(M, N, A, B);

    const double *b = &B[0][0];
    double total = 0.0, weighted = 0.0;
    for (int t = 0; t < M * N; t++) {
        total += b[t];
        weighted += b[t] * (double)(1 + t % 5);
    }
    double last_col = 0.0;
    for (int i = 0; i < M; i++)
        last_col += B[i][N - 1] * (double)(1 + i % 3);

    printf("m n reps = %d %d %d\n", M, N, reps);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("last column = %.10g\n", last_col);
    printf("B[0][0] = %.10g  B[M/2][N/3] = %.10g  B[M-1][N-1] = %.10g\n",
           B[0][0], B[M / 2][N / 3], B[M - 1][N - 1]);
    return 0;
}
