// corpus: bitwise AND / OR / XOR reductions over unsigned words (unsigned and size_t counters, 32- and 64-bit)
// args: test=4096 3 bench=8000000 150
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* common_bits: AND of all words (bits set in every word) */
unsigned common_bits(const unsigned *w, unsigned n)
{
    unsigned m = ~0u;
    for (unsigned i = 0; i < n; i++)   // expect: Reduction in common_bits
        m &= w[i];
    return m;
}

/* any_bits: OR of all words (bits set in some word) */
unsigned any_bits(const unsigned *w, unsigned n)
{
    unsigned m = 0u;
    for (unsigned i = 0; i < n; i++)   // expect: Reduction in any_bits
        m |= w[i];
    return m;
}

/* parity_hash: XOR of a multiplicative hash of each 64-bit word, scanned backwards */
uint64_t parity_hash(const uint64_t *w, size_t n)
{
    uint64_t h = 0;
    for (size_t i = n; i-- > 0;)   // expect: Reduction in parity_hash
        h ^= (w[i] * 0x9E3779B97F4A7C15ull) >> 7;
    return h;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atol(argv[1]) : 100000u;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    unsigned *w = malloc((size_t)n * sizeof *w);
    uint64_t *q = malloc((size_t)n * sizeof *q);
    uint64_t *res = malloc((size_t)iters * sizeof *res);
    if (!w || !q || !res)
        return 1;
    unsigned seed = 2024u;
    for (unsigned i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        w[i] = (seed & 0x0FFFFFF0u) | 0x80000001u;   /* top and bottom bits always set */
        q[i] = ((uint64_t)seed << 32) | (uint64_t)(i * 2654435761u);
    }

    for (int it = 0; it < iters; it++) {
        unsigned k = (unsigned)it % n;
        w[k] ^= 0x00000100u;   /* flips one bit between calls */
        uint64_t c = common_bits(w, n), a = any_bits(w, n);
        res[it] = (c << 32 | a) ^ parity_hash(q, n - (unsigned)it % 8);
    }

    uint64_t x = 0;
    for (int it = 0; it < iters; it++)   // expect: Reduction in main
        x ^= res[it];
    printf("and %08x or %08x\n", common_bits(w, n), any_bits(w, n));
    printf("hash %016llx first %016llx\n", (unsigned long long)x, (unsigned long long)res[0]);
    free(w);
    free(q);
    free(res);
    return 0;
}
