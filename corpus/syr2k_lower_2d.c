// corpus: SYR2K, textbook lower triangle of C = alpha*A*B^T + alpha*B*A^T + beta*C on fixed-size 2D arrays: a static kernel inlined into main, each row scaled by beta, then rank-2 updates over k with j <= i innermost
// args: test=1 bench=120
#include <stdio.h>
#include <stdlib.h>

#define N 420
#define M 300

/* The lower triangle (j <= i, diagonal included) of C = alpha * (A * B^T + B * A^T) + beta * C;
   the strictly upper triangle of C is neither read nor written. */
static void kernel_syr2k(int n, int m, double alpha, double beta, double C[N][N], double A[N][M], double B[N][M])
{
    for (int i = 0; i < n; i++) {              // expect: SYR2K in kernel_syr2k
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < m; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    double (*A)[M] = malloc(sizeof(double[N][M]));
    double (*B)[M] = malloc(sizeof(double[N][M]));
    double (*C)[N] = malloc(sizeof(double[N][N]));
    if (!A || !B || !C) return 1;

    for (int i = 0; i < N; i++)
        for (int k = 0; k < M; k++) {
            A[i][k] = (double)((i * 3 + k * 5) % 12) * 0.08 - 0.4;
            B[i][k] = (double)((i * 11 + k * 2) % 7) * 0.15 - 0.3;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = (double)((i * 2 + j * 9) % 15) * 0.04 - 0.2;

    /* beta < 1: C tends to alpha * (A B^T + B A^T) / (1 - beta) and stays bounded */
    for (int r = 0; r < reps; r++)
        kernel_syr2k(N, M, 1.25, 0.75, C, A, B);

    /* both triangles separately: the strictly upper one must still hold its initial values */
    const double *c = &C[0][0];
    double lower = 0.0, upper = 0.0, wlower = 0.0;
    for (int t = 0; t < N * N; t++) {          // expect: Reduction in main
        double in_lower = (double)(t % N <= t / N);
        lower += in_lower * c[t];
        upper += (1.0 - in_lower) * c[t];
        wlower += in_lower * c[t] * (double)(1 + t % 9);
    }
    double trace = 0.0;
    for (int i = 0; i < N; i++)                // expect: Reduction in main
        trace += C[i][i];

    printf("n m reps = %d %d %d\n", N, M, reps);
    printf("lower = %.10g\n", lower);
    printf("weighted lower = %.10g\n", wlower);
    printf("upper = %.10g\n", upper);
    printf("trace = %.10g\n", trace);
    printf("C[N-1][0] = %.10g  C[N/2][N/3] = %.10g\n", C[N - 1][0], C[N / 2][N / 3]);
    free(A); free(B); free(C);
    return 0;
}
