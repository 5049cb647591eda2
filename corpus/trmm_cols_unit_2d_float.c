// corpus: TRMM, float in-place B = L*B with the columns outermost, L unit lower triangular (A's diagonal taken as one, never read) on fixed-size static 2D arrays: a static kernel inlined into main, repeated, each column of B its own product, its rows counting down, the sum in a local from B's own element
// args: test=1 bench=4
#include <stdio.h>
#include <stdlib.h>

#define M 1100
#define N 1000

static float A[M][M], B[M][N];

/* B <- L * B in place, L the unit lower triangle of A (the diagonal taken as one; the
   diagonal and the strictly upper triangle never read). Column by column: row i adds
   the rows above it in the column, which the rows counting down have not updated yet;
   row 0 adds nothing. */
static void kernel_trmm_cols_unit(int m, int n, float A[M][M], float B[M][N])
{
    for (int j = 0; j < n; j++) {              // expect: TRMM in kernel_trmm_cols_unit
        for (int i = m - 1; i >= 0; i--) {
            float s = B[i][j];
            for (int k = 0; k < i; k++)
                s += A[i][k] * B[k][j];
            B[i][j] = s;
        }
    }
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* the strictly lower triangle non-negative and at most 1/(2M) (a row of L sums to
       less than 3/2: B grows by less than 3/2 a repetition, and float sums of
       non-negative terms do not cancel); the diagonal and the upper triangle large */
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = k < i ? (float)((i * 7 + k * 11) % 29) / (58.0f * M)
                    : k == i ? 64.0f : -12.0f - (float)(k % 5);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 0.5f + (float)((i * 3 + j * 7) % 19) * 0.03125f;

    for (int r = 0; r < reps; r++)
        kernel_trmm_cols_unit(M, N, A, B);

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {          // expect: Reduction in main
            total += (double)B[i][j];
            weighted += (double)B[i][j] * (double)(1 + (i + j) % 4);
        }

    printf("m n reps = %d %d %d\n", M, N, reps);
    printf("sum = %.6g\n", total);
    printf("weighted = %.6g\n", weighted);
    printf("B[0][0] = %.6g  B[M/2][N/3] = %.6g  B[M-1][N-1] = %.6g\n",
           (double)B[0][0], (double)B[M / 2][N / 3], (double)B[M - 1][N - 1]);
    return 0;
}
