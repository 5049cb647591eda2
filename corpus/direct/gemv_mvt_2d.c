// direct: gemv_mvt_2d.c: kernel_mvt's two nests as cblas_dgemv calls
// args: test=45 2 bench=2000 400
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define N 2000

static double A[N][N], x1[N], x2[N], y1[N], y2[N];

/* x1 = x1 + A y1 and x2 = x2 + A^T y2 over the leading n x n block. */
static void kernel_mvt(int n, double a[N][N], double u1[N], double u2[N], double v1[N], double v2[N])
{
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, &a[0][0], N, v1, 1, 1.0, u1, 1);
    cblas_dgemv(CblasRowMajor, CblasTrans, n, n, 1.0, &a[0][0], N, v2, 1, 1.0, u2, 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 1) n = 1;
    if (n > N) n = N;
    if (reps < 1) reps = 1;

    for (int i = 0; i < n; i++) {
        x1[i] = (double)(i % 5) / 5.0;
        x2[i] = (double)((i + 2) % 7) / 7.0;
        y1[i] = (double)(i % 9 + 1) / 9.0 - 0.5;
        y2[i] = (double)((i * 3) % 11) / 11.0 - 0.5;
        for (int j = 0; j < n; j++)
            A[i][j] = (double)((i * 7 + j * 3) % 31) / 31.0 - 0.5;
    }

    /* Each repetition adds the products again: x1 and x2 grow by A y1 and A^T y2. */
    for (int r = 0; r < reps; r++)
        kernel_mvt(n, A, x1, x2, y1, y2);

    double s1 = 0.0, s2 = 0.0;
    for (int i = 0; i < n; i++) {
        s1 += x1[i];
        s2 += x2[i] * (double)(i % 3 + 1);
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("x1 sum = %.10g x2 weighted = %.10g\n", s1, s2);
    printf("x1[0] = %.10g x1[n-1] = %.10g\n", x1[0], x1[n - 1]);
    printf("x2[0] = %.10g x2[n-1] = %.10g\n", x2[0], x2[n - 1]);
    return 0;
}
