// corpus: GEMM, batched in-place products of rows by one matrix (doitgen: A[r][q][:] = A[r][q][:] C4), fixed-size 3D array parameter, two batch loops, the sums from zero kept in memory (sum[p] +=), copied back over the row, repeated with a renormalisation between calls
// args: test=5 3 7 2 bench=96 96 160 20
#include <stdio.h>
#include <stdlib.h>

#define NR 96
#define NQ 96
#define NP 160

static double A[NR][NQ][NP], C4[NP][NP], sum[NP];

/* Each row A[r][q][0 .. np-1] of the leading nr x nq batch is replaced by its product with
   the leading np x np block of C4, through the row of sums. */
void doitgen(int nr, int nq, int np, double A[NR][NQ][NP], double C4[NP][NP], double sum[NP])
{
    for (int r = 0; r < nr; r++)                   // expect: GEMM in doitgen
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < np; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (int p = 0; p < np; p++)
                A[r][q][p] = sum[p];
        }
}

int main(int argc, char **argv)
{
    int nr = argc > 1 ? atoi(argv[1]) : 32;
    int nq = argc > 2 ? atoi(argv[2]) : 32;
    int np = argc > 3 ? atoi(argv[3]) : 64;
    int iters = argc > 4 ? atoi(argv[4]) : 2;
    if (nr < 1 || nr > NR || nq < 1 || nq > NQ || np < 1 || np > NP || iters < 1)
        return 1;

    /* positive entries; each row of C4 sums to about one, so the rows keep their size */
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++)
            for (int p = 0; p < np; p++)
                A[r][q][p] = (double)((r * 7 + q * 3 + p * 5) % 23 + 1) / 23.0;
    for (int s = 0; s < np; s++)
        for (int p = 0; p < np; p++)
            C4[s][p] = (double)((s * p + 2 * s + 1) % 13 + 1) / (7.0 * np);

    double target = (double)nr * nq * np, scale = 1.0;
    for (int it = 0; it < iters; it++) {
        doitgen(nr, nq, np, A, C4, sum);
        /* renormalise: the mean element back to one */
        double total = 0.0;
        for (int r = 0; r < nr; r++)
            for (int q = 0; q < nq; q++)
                for (int p = 0; p < np; p++)       // expect: Reduction in main
                    total += A[r][q][p];
        scale = target / total;
        for (int r = 0; r < nr; r++)   // expect: Map in main
            for (int q = 0; q < nq; q++)
                for (int p = 0; p < np; p++)
                    A[r][q][p] *= scale;
    }

    double sa = 0.0, wa = 0.0;
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++)
            for (int p = 0; p < np; p++) {         // expect: Reduction in main
                sa += A[r][q][p];
                wa += A[r][q][p] * (double)((r + 2 * q + 3 * p) % 7 + 1);
            }
    double ss = 0.0;
    for (int p = 0; p < np; p++)                   // expect: Reduction in main
        ss += sum[p] * (double)(p % 5 + 1);
    printf("nr nq np = %d %d %d iters = %d\n", nr, nq, np, iters);
    printf("last scale = %.10g\n", scale);
    printf("A sum = %.10g weighted = %.10g\n", sa, wa);
    printf("A[0][0][0] = %.10g A[nr-1][nq-1][np-1] = %.10g\n", A[0][0][0],
           A[nr - 1][nq - 1][np - 1]);
    printf("A[nr/2][nq/3][np/2] = %.10g\n", A[nr / 2][nq / 3][np / 2]);
    printf("sum weighted = %.10g sum[0] = %.10g\n", ss, sum[0]);
    return 0;
}
