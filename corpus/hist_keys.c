// corpus: histogram of integer keys, h[key[i]]++ (int bins, keys from an LCG reduced modulo the bin count)
// args: test=5000 64 2 bench=8000000 1024 300
#include <stdio.h>
#include <stdlib.h>

/* count_keys: h[k] += number of i in [0, n) with key[i] == k; every key is in [0, nbins) */
void count_keys(const int *key, int n, int *h)
{
    for (int i = 0; i < n; i++)   // expect: Histogram in count_keys
        h[key[i]]++;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int nbins = argc > 2 ? atoi(argv[2]) : 256;
    int iters = argc > 3 ? atoi(argv[3]) : 1;
    if (n < 1)
        n = 1;
    if (nbins < 1)
        nbins = 1;
    if (iters < 1)
        iters = 1;

    int *key = malloc((size_t)n * sizeof *key);
    int *h = calloc((size_t)nbins, sizeof *h);
    if (!key || !h)
        return 1;
    unsigned seed = 31337u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        unsigned r = seed >> 8;
        key[i] = (int)((((r >> 12) * (r & 0xfffu)) >> 12) % (unsigned)nbins);   /* skewed */
    }

    for (int it = 0; it < iters; it++)
        count_keys(key, n, h);

    long total = 0;
    for (int b = 0; b < nbins; b++)   // expect: Reduction in main
        total += (long)h[b] * (b + 1);
    for (int b = 0; b < 8 && b < nbins; b++)
        printf("h[%d] = %d\n", b, h[b]);
    printf("weighted total %ld\n", total);
    free(key);
    free(h);
    return 0;
}
