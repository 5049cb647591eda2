// direct: trmm_ikj_alpha_2d_float.c: strmm_ikj_alpha's loop nests as a cblas_strmm call (Left, Lower, Trans, Unit)
// args: test=1 bench=3
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define M 1800
#define N 1700

static float A[M][M], B[M][N];

/* B <- alpha * L^T * B in place, L the unit lower triangle of A (the diagonal taken as
   one; the diagonal and the strictly upper triangle never read): row i adds A[k][i]
   times each row k below it, not yet updated, then is scaled by alpha. */
static void strmm_ikj_alpha(int m, int n, float alpha, float A[M][M], float B[M][N])
{
    if (m > 0 && n > 0)
        cblas_strmm(CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, m, n,
                    alpha, &A[0][0], M, &B[0][0], N);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* the strictly lower triangle non-negative and at most 1/(2M) (a column of L sums to
       less than 3/2 and alpha is 1/2: B does not grow over the repetitions, and float
       sums of non-negative terms do not cancel); the diagonal and the upper triangle
       large */
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = k < i ? (float)((i * 3 + k * 17) % 37) / (74.0f * M)
                    : k == i ? 33.0f : -90.0f;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 1.0f + (float)((i * 13 + j * 5) % 27) * 0.03125f;

    for (int r = 0; r < reps; r++)
        strmm_ikj_alpha(M, N, 0.5f, A, B);

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            total += (double)B[i][j];
            weighted += (double)B[i][j] * (double)(1 + (2 * i + j) % 3);
        }

    printf("m n reps = %d %d %d\n", M, N, reps);
    printf("sum = %.5g\n", total);
    printf("weighted = %.5g\n", weighted);
    printf("B[0][0] = %.6g  B[M/2][N/3] = %.6g  B[M-1][N-1] = %.6g\n",
           (double)B[0][0], (double)B[M / 2][N / 3], (double)B[M - 1][N - 1]);
    return 0;
}
