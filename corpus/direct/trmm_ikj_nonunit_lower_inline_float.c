// direct: trmm_ikj_nonunit_lower_inline_float.c: strmm_ikj_lower's loop nest as a cblas_strmm call (Left, Lower, NoTrans, NonUnit)
// args: test=37 31 bench=2800 2600
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define M 2800
#define N 2600

static float A[M][M], B[M][N];

/* B <- L * B in place, L the lower triangle of A's first m rows and columns (diagonal
   included; the strictly upper triangle never read), B m x n. Row i is scaled by A[i][i],
   then adds A[i][k] times each row k above it, which the rows counting down have not
   updated yet. */
static void strmm_ikj_lower(int m, int n, float A[M][M], float B[M][N])
{
    if (m > 0 && n > 0)
        cblas_strmm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, m, n,
                    1.0f, &A[0][0], M, &B[0][0], N);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 250;
    if (m < 2) m = 2;
    if (m > M) m = M;
    if (n < 1) n = 1;
    if (n > N) n = N;

    /* non-negative entries (float sums that do not cancel): the strictly lower triangle
       at most 1/(2M), the diagonal between 0.5 and 1; the strictly upper triangle holds
       values the product must never read */
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = k < i ? (float)((i * 3 + k * 5) % 19) / (38.0f * M)
                    : k == i ? 0.5f + (float)(i % 9) * 0.0625f
                    : -40.0f;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 0.25f + (float)((i * 11 + j * 7) % 23) * 0.0625f;

    strmm_ikj_lower(m, n, A, B);

    /* B's first m rows and n columns, weighted by row and column, and the rest (unchanged) */
    const float *b = &B[0][0];
    double total = 0.0, weighted = 0.0, rest = 0.0;
    for (long t = 0; t < (long)M * N; t++) {
        long i = t / N, j = t % N;
        double in_b = (double)(i < m && j < n);
        total += in_b * (double)b[t];
        weighted += in_b * (double)b[t] * (double)(1 + (i + 3 * j) % 7);
        rest += (1.0 - in_b) * (double)b[t];
    }
    printf("m n = %d %d\n", m, n);
    printf("sum = %.6g\n", total);
    printf("weighted = %.6g\n", weighted);
    printf("rest = %.6g\n", rest);
    printf("B[0][0] = %.6g  B[m/2][n/2] = %.6g  B[m-1][n-1] = %.6g\n", (double)B[0][0],
           (double)B[m / 2][n / 2], (double)B[m - 1][n - 1]);
    return 0;
}
