// corpus: GEMV, two row dot products over one shared inner loop combined after it (y = alpha A x + B x, gesummv with the second scale absent), double ** row pointers into one padded block per matrix, both sums in locals, A x stored after the loop (tmp[i] = s), inside a normalised fixed-point iteration that feeds y back into x
// args: test=37 4 bench=2200 500
#include <stdio.h>
#include <stdlib.h>

/* y = alpha A x + B x and tmp = A x, A and B n x n, given as row pointers. */
void gesummv_rows(int n, double alpha, double **A, double **B, const double *x, double *tmp,
                  double *y)
{
    for (int i = 0; i < n; i++) {              // expect: GEMV in gesummv_rows
        double s = 0.0, t = 0.0;
        for (int j = 0; j < n; j++) {
            s += A[i][j] * x[j];
            t += B[i][j] * x[j];
        }
        tmp[i] = s;
        y[i] = alpha * s + t;
    }
}

/* n row pointers into one block, rows ld elements apart */
static double **rows_of(double *block, int n, int ld)
{
    double **r = malloc((size_t)n * sizeof *r);
    if (!r) return NULL;
    for (int i = 0; i < n; i++)
        r[i] = block + (size_t)i * ld;
    return r;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;
    int ld = n + 3;

    double *blockA = malloc((size_t)n * ld * sizeof *blockA);
    double *blockB = malloc((size_t)n * ld * sizeof *blockB);
    double *x = malloc((size_t)n * sizeof *x);
    double *tmp = malloc((size_t)n * sizeof *tmp);
    double *y = malloc((size_t)n * sizeof *y);
    if (!blockA || !blockB || !x || !tmp || !y) return 1;
    double **A = rows_of(blockA, n, ld);
    double **B = rows_of(blockB, n, ld);
    if (!A || !B) return 1;

    /* positive entries from a small LCG and a smooth part; the padding is never read */
    unsigned lcg = 777u;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            lcg = lcg * 1103515245u + 12345u;
            A[i][j] = 0.5 + (double)((lcg >> 16) % 64) / 128.0;
            B[i][j] = 0.2 + (double)((i + 3 * j) % 11) / 22.0;
        }
        for (int j = n; j < ld; j++) {
            A[i][j] = -1.0e30;
            B[i][j] = -1.0e30;
        }
    }
    for (int j = 0; j < n; j++)
        x[j] = 1.0 / (double)n;

    /* x <- y / sum(y), a power iteration on 0.5 A + B */
    double scale = 0.0;
    for (int rep = 0; rep < reps; rep++) {
        gesummv_rows(n, 0.5, A, B, x, tmp, y);
        double sy = 0.0;
        for (int i = 0; i < n; i++)            // expect: Reduction in main
            sy += y[i];
        scale = sy;
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] = y[i] / sy;
    }

    double sx = 0.0, wx = 0.0, st = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        sx += x[i];
        wx += x[i] * (double)(i % 6 + 1);
        st += tmp[i];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("scale = %.10g\n", scale);
    printf("x sum = %.10g weighted = %.10g tmp sum = %.10g\n", sx, wx * n, st);
    printf("x[0] = %.10g x[n-1] = %.10g y[n/2] = %.10g\n", x[0] * n, x[n - 1] * n, y[n / 2]);
    free(A); free(B); free(blockA); free(blockB); free(x); free(tmp); free(y);
    return 0;
}
