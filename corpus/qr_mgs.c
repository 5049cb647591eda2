// corpus: modified Gram-Schmidt QR of a fixed-size matrix held in global 2D arrays: column norms and projections as reductions down the columns, updates on the host
// args: test=40 bench=700
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 700
static double A[N][N], Q[N][N], R[N][N];

/* mgs: A (m x n, overwritten) = Q R, Q with orthonormal columns, R upper triangular */
void mgs(int m, int n)
{
    for (int k = 0; k < n; k++) {
        double norm = 0.0;
        for (int i = 0; i < m; i++)   // expect: Reduction in mgs
            norm += A[i][k] * A[i][k];
        R[k][k] = sqrt(norm);
        for (int i = 0; i < m; i++)   // expect: Map in mgs
            Q[i][k] = A[i][k] / R[k][k];
        for (int j = k + 1; j < n; j++) {
            R[k][j] = 0.0;
            for (int i = 0; i < m; i++)   // expect: Reduction in mgs
                R[k][j] += Q[i][k] * A[i][j];
            for (int i = 0; i < m; i++)   // expect: Map in mgs
                A[i][j] -= Q[i][k] * R[k][j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    if (n < 1)
        n = 1;
    if (n > N)
        n = N;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i][j] = (double)((i * 31 + j * 17) % 23) / 23.0 + (i == j ? 2.0 : 0.0);
    mgs(n, n);
    double trace = 0.0, qsum = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        trace += R[i][i];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)   // expect: Reduction in main
            qsum += fabs(Q[i][j]) * (double)(1 + (i + j) % 5);
    printf("trace %.10g\n", trace);
    printf("R01 %.10g R0n %.10g\n", R[0][n > 1 ? 1 : 0], R[0][n - 1]);
    printf("qsum %.10g\n", qsum);
    return 0;
}
