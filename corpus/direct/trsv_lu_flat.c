// direct: trsv_lu_flat.c: lu_solve's two loop nests as cblas_dtrsv calls (Lower, NoTrans, Unit, then Upper, NoTrans, NonUnit), x copied from b by the loop before them as in the program
// args: test=40 6 bench=1100 2600
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* A = L U in place, without pivoting: L unit lower (its diagonal not stored) below the
   diagonal of a, U on and above it. a is n x n, row-major, leading dimension lda. The
   matrix is strictly diagonally dominant by rows, so no pivot vanishes. */
void lu_factor(int n, double *a, int lda)
{
    for (int p = 0; p < n; p++) {
        double inv = 1.0 / a[p * lda + p];
        for (int i = p + 1; i < n; i++) {
            double l = a[i * lda + p] * inv;
            a[i * lda + p] = l;
            for (int k = p + 1; k < n; k++)
                a[i * lda + k] -= l * a[p * lda + k];
        }
    }
}

/* Solves L U x = b with the factors of lu_factor: x starts as b, L y = b forward in place
   (unit diagonal, the stored multipliers below the diagonal), then U x = y backward in
   place, the products subtracted from x[i] in memory and x[i] divided by U's diagonal. */
void lu_solve(int n, const double *a, int lda, const double *b, double *x)
{
    for (int i = 0; i < n; i++)
        x[i] = b[i];
    if (n > 0) {
        cblas_dtrsv(CblasRowMajor, CblasLower, CblasNoTrans, CblasUnit, n, a, lda, x, 1);
        cblas_dtrsv(CblasRowMajor, CblasUpper, CblasNoTrans, CblasNonUnit, n, a, lda, x, 1);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int reps = argc > 2 ? atoi(argv[2]) : 50;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;
    int lda = n + 5;

    double *a = malloc((size_t)n * (size_t)lda * sizeof *a);
    double *b = malloc((size_t)n * sizeof *b);
    double *x = malloc((size_t)n * sizeof *x);
    if (!a || !b || !x) return 1;

    /* an M-matrix: off-diagonal entries in [-1/n, -0.1/n] from a small LCG, the diagonal
       between 2 and 3; its factors keep the same signs, and a positive b gives a positive
       x. The padding columns hold a value the solves must never read. */
    unsigned int seed = 777u;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < lda; k++) {
            seed = seed * 1103515245u + 12345u;
            double r = (double)((seed >> 16) & 1023u) / 1024.0;
            if (k >= n)
                a[i * lda + k] = 1.0e6;
            else if (k == i)
                a[i * lda + k] = 2.0 + r;
            else
                a[i * lda + k] = -(0.1 + 0.9 * r) / (double)n;
        }
    }

    lu_factor(n, a, lda);

    /* many right-hand sides, one after another, with the same factors */
    double total = 0.0, weighted = 0.0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++)
            b[i] = 1.0 + 0.5 * (double)((i * 7 + r * 3) % 13) / 13.0;
        lu_solve(n, a, lda, b, x);
        double sx = 0.0, wx = 0.0;
        for (int i = 0; i < n; i++) {
            sx += x[i];
            wx += x[i] * (double)(1 + (i + r) % 5);
        }
        total += sx;
        weighted += wx;
    }

    double diag = 0.0;
    for (int i = 0; i < n; i++)
        diag += a[i * lda + i];

    printf("n reps = %d %d\n", n, reps);
    printf("sum of x = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("U diagonal = %.10g\n", diag);
    printf("x[0] = %.10g  x[n/2] = %.10g  x[n-1] = %.10g\n", x[0], x[n / 2], x[n - 1]);
    free(a); free(b); free(x);
    return 0;
}
