/* Histograms whose kernels the Lift compiler generates: keys counted as they are,
   shifted (signed and unsigned), masked, by remainder into long bins, float and double
   weights at a converted position, more bins than a work-group keeps in local memory
   (ints and doubles);
   one under a test (its kernels stay translated);
   and bins that overlap the keys (the original loop runs). Arguments: n, case. */
#include <stdio.h>
#include <stdlib.h>

#define BINS 512

void count_keys(int n, const int *key, int *h)
{
    for (int i = 0; i < n; i++)
        h[key[i]]++;
}

void count_buckets(int n, int shift, const int *key, long *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] >> shift] += 1;
}

void count_digits(unsigned n, unsigned shift, const unsigned *v, unsigned *h)
{
    for (unsigned i = 0; i < n; i++)
        h[(v[i] >> shift) & 255u]++;
}

void residues(long n, const unsigned *v, long *h)
{
    for (long i = 0; i < n; i++)
        h[v[i] % 97u] += v[i] >> 20;
}

void weights(int n, float scale, const float *x, const float *w, float *h)
{
    for (int i = 0; i < n; i++)
        h[(int)(x[i] * scale)] += w[i];
}

void weights_double(int n, const int *key, const double *w, double *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] / 3] += w[i] * 0.5;
}

void count_wide(int n, const int *key, int *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] * 37 % 9973]++;
}

void weights_wide(int n, const int *key, const double *w, double *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] * 37 % 9973] += w[i] * 0.5;
}

void in_range(int n, const int *key, int *h)
{
    for (int i = 0; i < n; i++)
        if (key[i] < 300)
            h[key[i]]++;
}

/* A counting sort's counts, one bin on: LLVM splits the constant off the bin's address
   into a getelementptr of its own. */
void count_shifted(int n, const int *key, int *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] + 1]++;
}

/* Long bins two back (h is two bins into the array). */
void count_back(int n, const int *key, long *h)
{
    for (int i = 0; i < n; i++)
        h[key[i] - 2] += 3;
}

/* Bins of rows with a long counter: LLVM splits the bin's address into two
   getelementptrs, one a part each (the row's, then the key's). */
void count_rows(long n, const int *key, long *h)
{
    for (long i = 0; i < n; i++)
        h[(i & 63) * 4 + (key[i] & 3)]++;
}

/* The bin from two reads, each a 64-bit part. */
void count_pairs(long n, const int *key, const unsigned *v, long *h)
{
    for (long i = 0; i < n; i++)
        h[(long)(key[i] % 61) * 3 + (long)(v[i] % 7)] += 2;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int which = argc > 2 ? atoi(argv[2]) : 0;
    int *key = malloc(sizeof(int) * (size_t)(n + 1));
    unsigned *v = malloc(sizeof(unsigned) * (size_t)(n + 1));
    float *x = malloc(sizeof(float) * (size_t)(n + 1)), *w = malloc(sizeof(float) * (size_t)(n + 1));
    double *dw = malloc(sizeof(double) * (size_t)(n + 1));
    int *hi = calloc(BINS + (size_t)n, sizeof(int)), *wide = calloc(9973, sizeof(int));
    double *wide_weights = calloc(9973, sizeof(double));
    long *hl = calloc(BINS, sizeof(long));
    unsigned *hu = calloc(BINS, sizeof(unsigned));
    float *hf = calloc(BINS, sizeof(float));
    double *hd = calloc(BINS, sizeof(double));
    unsigned state = 88172645u;
    for (int i = 0; i < n; i++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        key[i] = (int)(state % BINS);
        v[i] = state;
        x[i] = (float)(state % 1000) / 1000.0f;
        w[i] = (float)(state % 64) * 0.25f - 4.0f;
        dw[i] = (double)(state % 32) - 8.0;
        hi[i % BINS] = (int)(state % 5);
    }
    switch (which) {
    case 0: count_keys(n, key, hi); break;
    case 1: count_buckets(n, 2, key, hl); break;
    case 2: count_digits((unsigned)n, 8, v, hu); break;
    case 3: residues(n, v, hl); break;
    case 4: weights(n, 400.0f, x, w, hf); break;
    case 5: weights_double(n, key, dw, hd); break;
    case 6: in_range(n, key, hi); break;
    case 8: count_wide(n, key, wide); break;
    case 9: weights_wide(n, key, dw, wide_weights); break;
    case 10: count_shifted(n, key, hi); break;
    case 11: count_back(n, key, hl + 2); break;
    case 12: count_rows(n, key, hl); break;
    case 13: count_pairs(n, key, v, hl); break;
    case 7: /* the bins are the keys themselves: they overlap what is read */
        for (int i = 0; i < n; i++)
            hi[BINS + i] = i % 3;
        count_keys(n, hi + BINS, hi + BINS);
        break;
    }
    for (int b = 0; which == 8 && b < 9973; b++)
        printf("%d %d\n", b, wide[b]);
    for (int b = 0; which == 9 && b < 9973; b++)
        printf("%d %a\n", b, wide_weights[b]);
    for (int b = 0; b < BINS + (which == 7 ? n : which == 10 ? 1 : 0); b++)
        printf("%d %d %ld %u %a %a\n", b, hi[b], b < BINS ? hl[b] : 0L, b < BINS ? hu[b] : 0u,
               b < BINS ? (double)hf[b] : 0.0, b < BINS ? hd[b] : 0.0);
    return 0;
}
