// direct: gemv_rows_global.c: matvec's loop nest as a cblas_dgemv call
// args: test=64 2 bench=2048 400
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define NMAX 2048

double A[NMAX][NMAX];
double x[NMAX];
double y[NMAX];

/* y[i] = sum_j A[i][j] * x[j] over the leading n x n block. */
void matvec(int n)
{
    if (n > 0)
        cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, &A[0][0], NMAX, x, 1, 0.0, y, 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 512;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 2) n = 2;
    if (n > NMAX) n = NMAX;
    if (reps < 1) reps = 1;

    for (int i = 0; i < n; i++) {
        x[i] = 1.0 / (double)(i + 1);
        for (int j = 0; j < n; j++)
            A[i][j] = (double)((i * 17 + j * 5) % 29) / 29.0 - 0.5;
    }

    for (int r = 0; r < reps; r++)
        matvec(n);

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < n; i++) {
        sum += y[i];
        wsum += y[i] * x[i];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("y[n/2] = %.10g\n", y[n / 2]);
    return 0;
}
