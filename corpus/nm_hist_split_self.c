// corpus: bins of 64 rows of 4 chosen by a value read from the bins themselves, with a long counter (LLVM splits the bin's address in two)
// near-miss: the data-dependent part of the bin is read from the bins the loop updates, so an iteration's bin depends on the counts before it: not a Histogram
// args: test=1000 3 bench=4000000 40
#include <stdio.h>
#include <stdlib.h>

/* self_rows: h[(i & 63) * 4 + (h[i] & 3)] += 1, h[i] read as the loop counts */
void self_rows(long *h, long n)
{
    for (long i = 0; i < n; i++)   // expect-none: Histogram
        h[(i & 63) * 4 + (h[i] & 3)]++;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int iters = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 256)
        n = 256;
    if (iters < 1)
        iters = 1;
    long *h = calloc((size_t)n, sizeof *h);
    if (!h)
        return 1;
    for (long i = 0; i < n; i++)
        h[i] = (i * 7) % 5;
    for (int it = 0; it < iters; it++)
        self_rows(h, n);
    long total = 0;
    for (long i = 0; i < n; i++)   // expect: Reduction in main
        total += h[i] * (i % 13);
    printf("h[0] %ld h[255] %ld total %ld\n", h[0], h[255], total);
    free(h);
    return 0;
}
