// corpus: GEMM, batched in-place products of rows by one matrix (doitgen), the batch a double ** table with one row pointer per (r, q) into one padded block, bounds from macros, two batch loops, the sums from zero kept in a global array, repeated with a renormalisation between calls
// args: test=1 2 bench=300 3
#include <stdio.h>
#include <stdlib.h>

#define NR 16
#define NQ 32
#define NP 160

double sum[NP];

/* Each row A[r*NQ + q][0 .. NP-1] of the NR x NQ batch is replaced by its product with
   C4, through the global row of sums. */
void doitgen_rows(double **A, double C4[NP][NP])
{
    for (int r = 0; r < NR; r++)                   // expect: GEMM in doitgen_rows
        for (int q = 0; q < NQ; q++) {
            for (int p = 0; p < NP; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < NP; s++)
                    sum[p] += A[r * NQ + q][s] * C4[s][p];
            }
            for (int p = 0; p < NP; p++)
                A[r * NQ + q][p] = sum[p];
        }
}

int main(int argc, char **argv)
{
    /* the sizes are fixed at compile time; the arguments repeat the product and pad the
       rows of the block */
    int iters = argc > 1 ? atoi(argv[1]) : 10;
    int pad = argc > 2 ? atoi(argv[2]) : 3;
    if (iters < 1 || pad < 0) return 1;
    int ld = NP + pad;

    double *block = malloc((size_t)NR * NQ * ld * sizeof *block);
    double **A = malloc((size_t)NR * NQ * sizeof *A);
    double (*C4)[NP] = malloc(sizeof(double[NP][NP]));
    if (!block || !A || !C4) return 1;
    for (int i = 0; i < NR * NQ; i++)
        A[i] = block + (size_t)i * ld;

    /* positive entries from a small LCG; each row of C4 sums to about one. The padding
       is never read. */
    unsigned lcg = 12345u;
    for (int i = 0; i < NR * NQ; i++) {
        for (int p = 0; p < NP; p++) {
            lcg = lcg * 1103515245u + 12345u;
            A[i][p] = 0.5 + (double)((lcg >> 16) % 64) / 64.0;
        }
        for (int p = NP; p < ld; p++)
            A[i][p] = -1.0e30;
    }
    for (int s = 0; s < NP; s++)
        for (int p = 0; p < NP; p++)
            C4[s][p] = (double)((s * 5 + p * p) % 9 + 1) / (5.0 * NP);

    double scale = 1.0;
    for (int it = 0; it < iters; it++) {
        doitgen_rows(A, C4);
        /* renormalise: the mean element back to one */
        double total = 0.0;
        for (int i = 0; i < NR * NQ; i++)
            for (int p = 0; p < NP; p++)           // expect: Reduction in main
                total += A[i][p];
        scale = (double)NR * NQ * NP / total;
        for (int i = 0; i < NR * NQ; i++)   // expect: Map in main
            for (int p = 0; p < NP; p++)
                A[i][p] *= scale;
    }

    double sa = 0.0, wa = 0.0;
    for (int i = 0; i < NR * NQ; i++)
        for (int p = 0; p < NP; p++) {             // expect: Reduction in main
            sa += A[i][p];
            wa += A[i][p] * (double)((i + 2 * p) % 9 + 1);
        }
    double ss = 0.0;
    for (int p = 0; p < NP; p++)                   // expect: Reduction in main
        ss += sum[p] * (double)(p % 4 + 1);
    printf("nr nq np ld = %d %d %d %d iters = %d\n", NR, NQ, NP, ld, iters);
    printf("last scale = %.10g\n", scale);
    printf("A sum = %.10g weighted = %.10g\n", sa, wa);
    printf("A[0][0] = %.10g A[last][np-1] = %.10g\n", A[0][0], A[NR * NQ - 1][NP - 1]);
    printf("A[mid][np/3] = %.10g\n", A[NR * NQ / 2][NP / 3]);
    printf("sum weighted = %.10g sum[np-1] = %.10g\n", ss, sum[NP - 1]);
    free(block); free(A); free(C4);
    return 0;
}
