// direct: gemm_dot_global.c: matmul's loop nest as a cblas_dgemm call
// args: test=48 bench=700
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define NMAX 1024

double A[NMAX][NMAX];
double B[NMAX][NMAX];
double C[NMAX][NMAX];

/* C = A * B on the leading n x n corner of the global arrays (dot-product form). */
void matmul(int n)
{
    if (n > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
                    1.0, &A[0][0], NMAX, &B[0][0], NMAX, 0.0, &C[0][0], NMAX);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 2) n = 2;
    if (n > NMAX) n = NMAX;

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i][j] = (double)((i * 7 + j * 3) % 13) / 13.0 - 0.5;
            B[i][j] = (double)((i * 5 + j * 11) % 17) / 17.0 - 0.25;
        }

    matmul(n);

    /* trace, anti-diagonal, middle row and middle column */
    double tr = 0.0, ad = 0.0, rs = 0.0, cs = 0.0;
    for (int i = 0; i < n; i++) {
        tr += C[i][i];
        ad += C[i][n - 1 - i];
        rs += C[n / 2][i];
        cs += C[i][n / 2];
    }
    printf("n = %d\n", n);
    printf("trace = %.10g\n", tr);
    printf("antidiag = %.10g\n", ad);
    printf("row = %.10g\n", rs);
    printf("col = %.10g\n", cs);
    printf("C[1][2] = %.10g\n", C[1][2]);
    return 0;
}
