// corpus: GEMM, batched in-place products of rows by one matrix (doitgen), float, flat arrays with computed indices and a padded row length, two batch loops, each sum in a local stored to sum[p], W's factor first, a static kernel that clang inlines into main, repeated with a renormalisation between calls
// args: test=4 3 9 2 bench=64 96 192 18
#include <stdio.h>
#include <stdlib.h>

/* Each row A[(r*nq + q)*ld + 0 .. np-1] of the nr x nq batch (rows ld apart) is replaced
   by its product with the np x np matrix W (row-major), through the row of sums. */
static void doitgen_f(int nr, int nq, int np, int ld, float *A, const float *W, float *sum)
{
    for (int r = 0; r < nr; r++) {                 // expect: GEMM in doitgen_f
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {
                float t = 0.0f;
                for (int s = 0; s < np; s++)
                    t += W[s * np + p] * A[(r * nq + q) * ld + s];
                sum[p] = t;
            }
            for (int p = 0; p < np; p++)
                A[(r * nq + q) * ld + p] = sum[p];
        }
    }
}

int main(int argc, char **argv)
{
    int nr = argc > 1 ? atoi(argv[1]) : 16;
    int nq = argc > 2 ? atoi(argv[2]) : 16;
    int np = argc > 3 ? atoi(argv[3]) : 64;
    int iters = argc > 4 ? atoi(argv[4]) : 2;
    if (nr < 1 || nq < 1 || np < 1 || iters < 1)
        return 1;
    int ld = np + 5;
    int rows = nr * nq;

    float *A = malloc((size_t)rows * ld * sizeof *A);
    float *W = malloc((size_t)np * np * sizeof *W);
    float *sum = malloc((size_t)np * sizeof *sum);
    if (!A || !W || !sum) return 1;

    /* positive entries, multiples of 1/16; each row of W sums to about one. The padding
       holds a huge value that would show if it were read. */
    for (int i = 0; i < rows; i++) {
        for (int p = 0; p < np; p++)
            A[i * ld + p] = (float)((i * 5 + p * 3) % 17 + 8) / 16.0f;
        for (int p = np; p < ld; p++)
            A[i * ld + p] = 1.0e30f;
    }
    for (int s = 0; s < np; s++)
        for (int p = 0; p < np; p++)
            W[s * np + p] = (float)((s * 3 + p * 7) % 11 + 1) / (6.0f * (float)np);

    double scale = 1.0;
    for (int it = 0; it < iters; it++) {
        doitgen_f(nr, nq, np, ld, A, W, sum);
        /* renormalise: the mean element back to one */
        double total = 0.0;
        for (int i = 0; i < rows; i++)
            for (int p = 0; p < np; p++)           // expect: Reduction in main
                total += (double)A[i * ld + p];
        scale = (double)rows * np / total;
        for (int i = 0; i < rows; i++)              // expect: Map in main
            for (int p = 0; p < np; p++)
                A[i * ld + p] = (float)((double)A[i * ld + p] * scale);
    }

    double sa = 0.0, wa = 0.0;
    for (int i = 0; i < rows; i++)
        for (int p = 0; p < np; p++) {             // expect: Reduction in main
            sa += (double)A[i * ld + p];
            wa += (double)A[i * ld + p] * (double)((i + 3 * p) % 7 + 1);
        }
    double ss = 0.0;
    for (int p = 0; p < np; p++)                   // expect: Reduction in main
        ss += (double)sum[p] * (double)(p % 5 + 1);
    printf("nr nq np ld = %d %d %d %d iters = %d\n", nr, nq, np, ld, iters);
    printf("last scale = %.6e\n", scale);
    printf("A sum = %.6e weighted = %.6e\n", sa, wa);
    printf("A[0] = %.6e A[last] = %.6e\n", (double)A[0], (double)A[(rows - 1) * ld + np - 1]);
    printf("A[mid] = %.6e\n", (double)A[(rows / 2) * ld + np / 3]);
    printf("sum weighted = %.6e sum[0] = %.6e\n", ss, (double)sum[0]);
    free(A); free(W); free(sum);
    return 0;
}
