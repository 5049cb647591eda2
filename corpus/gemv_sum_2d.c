// corpus: GEMV, two row dot products over one shared inner loop combined after it (y = alpha A x + beta B x, gesummv), fixed-size 2D array parameters (N from #define), both sums kept in memory (tmp[i] and y[i] cleared, then updated at every trip), tmp kept, bounds from parameters, an ordinary external kernel called from main, x drifting between repetitions
// args: test=40 33 2 bench=2000 2000 700
#include <stdio.h>
#include <stdlib.h>

#define N 2000

static double A[N][N], B[N][N], tmp[N], x[N], y[N];

/* y = alpha A x + beta B x over the leading n x m blocks of a and b; tmp = A x. */
void kernel_gesummv(int n, int m, double alpha, double beta, double a[N][N], double b[N][N],
                    double tmpv[N], double xv[N], double yv[N])
{
    int i, j;
    for (i = 0; i < n; i++) {                  // expect: GEMV in kernel_gesummv
        tmpv[i] = 0.0;
        yv[i] = 0.0;
        for (j = 0; j < m; j++) {
            tmpv[i] = a[i][j] * xv[j] + tmpv[i];
            yv[i] = b[i][j] * xv[j] + yv[i];
        }
        yv[i] = alpha * tmpv[i] + beta * yv[i];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int m = argc > 2 ? atoi(argv[2]) : 300;
    int reps = argc > 3 ? atoi(argv[3]) : 4;
    if (n < 2) n = 2;
    if (n > N) n = N;
    if (m < 2) m = 2;
    if (m > N) m = N;
    if (reps < 1) reps = 1;

    /* the whole arrays are filled; the kernel reads only the leading n x m blocks.
       Positive entries of moderate size, so that no sum cancels. */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = 0.5 + (double)((i * 5 + j * 11) % 29) / 29.0;
            B[i][j] = 0.25 + (double)((i * 7 + j * 3) % 31) / 31.0;
        }
    for (int j = 0; j < N; j++)
        x[j] = (double)(j % 8 + 1) / 8.0;

    /* y is recomputed at every repetition; x drifts a little between them. */
    double first = 0.0;
    for (int rep = 0; rep < reps; rep++) {
        kernel_gesummv(n, m, 1.5, 0.75, A, B, tmp, x, y);
        if (rep == 0)
            first = y[0];
        for (int j = 0; j < m; j++)   // expect: Map in main
            x[j] = x[j] * 0.999 + 0.0005 * (double)(j % 3);
    }

    double sy = 0.0, wy = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        sy += y[i];
        wy += y[i] * (double)(i % 5 + 1);
    }
    double st = 0.0;
    for (int i = 0; i < n; i++)                // expect: Reduction in main
        st += tmp[i] * (double)(i % 3 + 1);
    printf("n m = %d %d reps = %d\n", n, m, reps);
    printf("y sum = %.10g weighted = %.10g\n", sy / m, wy / m);
    printf("tmp weighted = %.10g\n", st / m);
    printf("y[0] first = %.10g y[0] = %.10g y[n-1] = %.10g tmp[n-1] = %.10g\n",
           first, y[0], y[n - 1], tmp[n - 1]);
    return 0;
}
