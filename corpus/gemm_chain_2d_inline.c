// corpus: GEMM, a chain of two products in fixed-size 2D arrays (tmp = alpha A B, then D = beta D + tmp C), alpha on a factor, D scaled in place before its sum, static kernel inlined into main so that the sums live in registers
// args: test=23 19 21 17 bench=1000 1000 1000 1000
#include <stdio.h>
#include <stdlib.h>

#define MAX 1000

static double A[MAX][MAX], B[MAX][MAX], C[MAX][MAX], D[MAX][MAX], tmp[MAX][MAX];

/* D = alpha * A * B * C + beta * D over the leading ni x nl block. */
static void kernel_chain(int ni, int nj, int nk, int nl, double alpha, double beta,
                         double t[MAX][MAX], double a[MAX][MAX], double b[MAX][MAX],
                         double c[MAX][MAX], double d[MAX][MAX])
{
    for (int i = 0; i < ni; i++)                  // expect: GEMM in kernel_chain
        for (int j = 0; j < nj; j++) {
            t[i][j] = 0.0;
            for (int k = 0; k < nk; ++k)
                t[i][j] += alpha * a[i][k] * b[k][j];
        }
    for (int i = 0; i < ni; i++)                  // expect: GEMM in kernel_chain
        for (int j = 0; j < nl; j++) {
            d[i][j] *= beta;
            for (int k = 0; k < nj; ++k)
                d[i][j] += t[i][k] * c[k][j];
        }
}

int main(int argc, char **argv)
{
    int ni = argc > 1 ? atoi(argv[1]) : 200;
    int nj = argc > 2 ? atoi(argv[2]) : 200;
    int nk = argc > 3 ? atoi(argv[3]) : 200;
    int nl = argc > 4 ? atoi(argv[4]) : 200;
    if (ni < 1 || ni > MAX || nj < 1 || nj > MAX || nk < 1 || nk > MAX || nl < 1 || nl > MAX)
        return 1;
    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++)
            A[i][k] = (double)((i * k + 1) % 17) / 17.0;
    for (int k = 0; k < nk; k++)
        for (int j = 0; j < nj; j++)
            B[k][j] = (double)((k * (j + 1)) % 13) / 13.0 - 0.5;
    for (int j = 0; j < nj; j++)
        for (int l = 0; l < nl; l++)
            C[j][l] = (double)((j * (l + 3) + 1) % 11) / 11.0;
    for (int i = 0; i < ni; i++)
        for (int l = 0; l < nl; l++)
            D[i][l] = (double)((i * (l + 2)) % 7) / 7.0;

    kernel_chain(ni, nj, nk, nl, 1.5, 1.2, tmp, A, B, C, D);

    double sum = 0.0, weighted = 0.0;
    for (int i = 0; i < ni; i++)
        for (int l = 0; l < nl; l++) {            // expect: Reduction in main
            sum += D[i][l];
            weighted += D[i][l] * (double)((i + 2 * l) % 5 + 1);
        }
    printf("sum %.10g weighted %.10g\n", sum, weighted);
    printf("D[0][0] %.10g D[last][last] %.10g\n", D[0][0], D[ni - 1][nl - 1]);
    printf("tmp[0][0] %.10g\n", tmp[0][0]);
    return 0;
}
