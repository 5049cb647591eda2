// direct: trmm_sizet_2d_inline.c: kernel_strmm's nest as one cblas_strmm call (Left, Upper, NoTrans, Unit)
// args: test=1 bench=6
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define M 1200
#define N 1100

static float A[M][M], B[M][N];

/* B <- alpha * (I + strictly upper part of A) * B in place: A's diagonal is taken as one
   and not read, its lower triangle is never read. Row i reads the rows below it, which
   the rows counting up have not updated yet. */
static void kernel_strmm(size_t m, size_t n, float alpha, float A[M][M], float B[M][N])
{
    if (m > 0 && n > 0)
        cblas_strmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasUnit,
                    (int)m, (int)n, alpha, &A[0][0], M, &B[0][0], N);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* the strictly upper triangle at most 0.5/M (a row of U sums to less than 1.5), the
       diagonal and the lower triangle values the product must not read */
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = k > i ? (float)((i * 5 + k * 3) % 29 + 1) / (58.0f * M)
                    : k == i ? 60.0f : -2.5f;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 0.5f + (float)((i * 11 + j * 2) % 13) * 0.0625f;

    /* alpha * (1 + 0.5) < 1: B stays bounded over the repetitions */
    for (int r = 0; r < reps; r++)
        kernel_strmm(M, N, 0.6f, A, B);

    const float *b = &B[0][0];
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
