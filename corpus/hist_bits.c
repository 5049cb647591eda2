// corpus: histograms of unsigned 32-bit data with bins from shifts/masks (radix digit counts) and from a modulo
// args: test=6000 2 bench=8000000 35
#include <stdio.h>
#include <stdlib.h>

#define RADIX_BITS 8
#define NDIGIT (1u << RADIX_BITS)
#define NMOD 97u

/* digit_counts: cnt[(v[i] >> shift) & 0xff]++, the counting pass of an LSD radix sort */
void digit_counts(const unsigned *v, unsigned n, unsigned shift, unsigned *cnt)
{
    for (unsigned i = 0; i < n; i++)   // expect: Histogram in digit_counts
        cnt[(v[i] >> shift) & (NDIGIT - 1)]++;
}

/* residue_weights: res[v[i] % 97] += v[i] >> 24 (long bins, long counter) */
void residue_weights(const unsigned *v, long n, long *res)
{
    for (long i = 0; i < n; i++)   // expect: Histogram in residue_weights
        res[v[i] % NMOD] += v[i] >> 24;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atol(argv[1]) : 100000u;
    int iters = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    unsigned *v = malloc((size_t)n * sizeof *v);
    unsigned *cnt = calloc(4 * NDIGIT, sizeof *cnt);
    long *res = calloc(NMOD, sizeof *res);
    if (!v || !cnt || !res)
        return 1;
    unsigned seed = 555u;
    for (unsigned i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = seed ^ (seed >> 13);
    }

    for (int it = 0; it < iters; it++) {
        for (unsigned pass = 0; pass < 4; pass++)
            digit_counts(v, n, pass * RADIX_BITS, cnt + pass * NDIGIT);
        residue_weights(v, (long)n, res);
    }

    unsigned long long cs = 0;
    for (unsigned b = 0; b < 4 * NDIGIT; b++)   // expect: Reduction in main
        cs += (unsigned long long)cnt[b] * (b % NDIGIT);
    long rs = 0;
    for (unsigned b = 0; b < NMOD; b++)   // expect: Reduction in main
        rs += res[b];
    printf("digit checksum %llu\n", cs);
    printf("cnt[0] %u cnt[255] %u res[0] %ld res[96] %ld total %ld\n", cnt[0], cnt[NDIGIT - 1], res[0],
           res[NMOD - 1], rs);
    free(v);
    free(cnt);
    free(res);
    return 0;
}
