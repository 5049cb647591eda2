// direct: ger_rank1_2d.c: kernel_ger's loop nest as a cblas_dger call
// args: test=1 bench=6000
#include <stdio.h>
#include <cblas.h>
#include <stdlib.h>

#define M 1200
#define N 1000

static void kernel_ger(int m, int n, double alpha, double A[M][N], const double x[M],
                       const double y[N])
{
    if (m > 0 && n > 0)
        cblas_dger(CblasRowMajor, m, n, alpha, x, 1, y, 1, &A[0][0], N);
}

static double A[M][N], x[M], y[N];

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;
    for (int i = 0; i < M; i++) {
        x[i] = (double)((i * 7) % 23) / 23.0 - 0.5;
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i + 3 * j) % 17) / 17.0;
    }
    for (int j = 0; j < N; j++) y[j] = (double)((j * 5) % 19) / 19.0 - 0.4;

    /* alternating signs keep A bounded however many repetitions run */
    for (int r = 0; r < reps; r++)
        kernel_ger(M, N, r % 2 ? -0.25 : 0.25, A, x, y);

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            total += A[i][j];
            weighted += A[i][j] * (double)((i * 3 + j) % 7);
        }
    }
    printf("reps = %d\n", reps);
    printf("total = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("A[M-1][N-1] = %.10g\n", A[M - 1][N - 1]);
    return 0;
}
