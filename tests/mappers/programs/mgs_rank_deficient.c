/* Modified Gram-Schmidt on a rank-deficient matrix (A[i][j] = (i*j mod m)/m * 100 + 10 has
 * rank far below n): from some column on, R[k][k] is rounding noise (about 1e-13), and what
 * follows magnifies any change in the last bit of a column norm. Reordering the norm's sum
 * (the default for floating-point reductions) changes those digits; --no-reassociate keeps
 * every floating-point order, and the output is then the original's to the last bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define M 120
#define N 100

static void factor(int m, int n, double a[M][N], double r[N][N], double q[M][N]) {
    for (int k = 0; k < n; k++) {
        double norm = 0.0;
        for (int i = 0; i < m; i++)
            norm += a[i][k] * a[i][k];
        r[k][k] = sqrt(norm);
        for (int i = 0; i < m; i++)
            q[i][k] = a[i][k] / r[k][k];
        for (int j = k + 1; j < n; j++) {
            r[k][j] = 0.0;
            for (int i = 0; i < m; i++)
                r[k][j] += q[i][k] * a[i][j];
            for (int i = 0; i < m; i++)
                a[i][j] = a[i][j] - q[i][k] * r[k][j];
        }
    }
}

int main(void) {
    double (*a)[N] = malloc(sizeof(double[M][N]));
    double (*r)[N] = calloc(N, sizeof(double[N]));
    double (*q)[N] = calloc(M, sizeof(double[N]));
    if (!a || !r || !q)
        return 1;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            a[i][j] = (double)((i * j) % M) / M * 100.0 + 10.0;
    factor(M, N, a, r, q);
    for (int k = 0; k < N; k++)
        printf("R[%d][%d] %.17g\n", k, k, r[k][k]);
    printf("Q %.17g %.17g\n", q[M - 1][N - 1], q[M / 2][N / 3]);
    return 0;
}
