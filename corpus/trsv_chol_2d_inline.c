// corpus: TRSV, Cholesky factor of a fixed-size symmetric positive-definite matrix (static 2D arrays, macros), then many right-hand sides solved by a static function inlined into main: L y = b forward, then L^T x = y backward reading L by columns, both divided by L's diagonal
// args: test=3 bench=6500
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 640
#define NRHS_CYCLE 17

static double A[N][N], L[N][N];
static double b[N], y[N], x[N];

/* A = L L^T, L lower triangular with a positive diagonal, by rows (Cholesky-Banachiewicz);
   the strictly upper triangle of L is left as it was. */
static void cholesky(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++) {
            double s = A[i][j];
            for (int k = 0; k < j; k++)        // expect: Reduction in cholesky
                s -= L[i][k] * L[j][k];
            if (i == j)
                L[i][i] = sqrt(s);
            else
                L[i][j] = s / L[j][j];
        }
    }
}

/* A x = b with A = L L^T: L y = b, then L^T x = y; row i of L^T is column i of L. */
static void chol_solve(void)
{
    for (int i = 0; i < N; i++) {              // expect: TRSV in chol_solve
        double s = b[i];
        for (int j = 0; j < i; j++)
            s -= L[i][j] * y[j];
        y[i] = s / L[i][i];
    }
    for (int i = N - 1; i >= 0; i--) {         // expect: TRSV in chol_solve
        double s = y[i];
        for (int j = i + 1; j < N; j++)
            s -= L[j][i] * x[j];
        x[i] = s / L[i][i];
    }
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 100;
    if (reps < 1) reps = 1;

    /* symmetric, the diagonal 3 to 4, the off-diagonal entries in (0, 1/N]: strictly
       diagonally dominant, hence positive definite. The strictly upper triangle of L holds
       a value the solves must never read. */
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int lo = i < j ? i : j, hi = i < j ? j : i;
            A[i][j] = i == j ? 3.0 + (double)(i % 9) / 8.0
                             : (double)((lo * 17 + hi * 5) % 31 + 1) / (31.0 * N);
            L[i][j] = j > i ? 4.0e3 : 0.0;
        }
    }

    cholesky();

    /* the same factor for many right-hand sides, cycling through NRHS_CYCLE shapes */
    double total = 0.0, weighted = 0.0;
    for (int r = 0; r < reps; r++) {
        int c = r % NRHS_CYCLE;
        for (int i = 0; i < N; i++)
            b[i] = 1.0 + (double)((i * (c + 2) + c) % 11) * 0.125;
        chol_solve();
        double sx = 0.0, wx = 0.0;
        for (int i = 0; i < N; i++) {          // expect: Reduction in main
            sx += x[i];
            wx += x[i] * (double)(1 + i % 7);
        }
        total += sx;
        weighted += wx;
    }

    double ysum = 0.0, ldiag = 0.0;
    for (int i = 0; i < N; i++) {              // expect: Reduction in main
        ysum += y[i];
        ldiag += L[i][i];
    }

    printf("n reps = %d %d\n", N, reps);
    printf("sum of x = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("last y sum = %.10g\n", ysum);
    printf("L diagonal = %.10g\n", ldiag);
    printf("x[0] = %.10g  x[N/2] = %.10g  x[N-1] = %.10g\n", x[0], x[N / 2], x[N - 1]);
    return 0;
}
