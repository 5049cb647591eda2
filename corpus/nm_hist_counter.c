// corpus: per-phase and per-block sums of a signal, the bin chosen by the loop counter alone (i % 16, i / chunk)
// near-miss: the updated element depends only on the loop counter, not on data read in the loop, so it is not a Histogram
// args: test=1000 3 bench=8000000 60
#include <stdio.h>
#include <stdlib.h>

#define PHASES 16

/* phase_sums: h[p] += a[i] for every i with i % 16 == p */
void phase_sums(const float *a, int n, double *h)
{
    for (int i = 0; i < n; i++)   // expect-none: Histogram
        h[i % PHASES] += a[i];
}

/* block_sums: blk[i / chunk] += a[i] (consecutive blocks of chunk elements) */
void block_sums(const float *a, int n, int chunk, double *blk)
{
    for (int i = 0; i < n; i++)   // expect-none: Histogram
        blk[i / chunk] += a[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    int chunk = (n + 7) / 8;
    float *a = malloc((size_t)n * sizeof *a);
    double h[PHASES] = { 0 };
    double blk[8] = { 0 };
    if (!a)
        return 1;
    for (int i = 0; i < n; i++)
        a[i] = (float)((i * 5) % 9) * 0.125f;

    for (int it = 0; it < iters; it++) {
        phase_sums(a, n, h);
        block_sums(a, n, chunk, blk);
    }

    double hs = 0.0, bs = 0.0;
    for (int p = 0; p < PHASES; p++)   // expect: Reduction in main
        hs += h[p];
    for (int b = 0; b < 8; b++)   // expect: Reduction in main
        bs += blk[b];
    printf("h[0] %.10g h[15] %.10g blk[0] %.10g blk[7] %.10g\n", h[0], h[PHASES - 1], blk[0],
           blk[7]);
    printf("totals %.10g %.10g\n", hs, bs);
    free(a);
    return 0;
}
