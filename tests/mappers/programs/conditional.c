/* Conditional histograms for the differential tests of the histogram mapper: the update
 * happens only when a test on the iteration's data holds. Each kernel is called on
 * inputs the test chooses and the bins are printed in full, so that the accelerated
 * build can be compared with the original one. */
#include <stdio.h>
#include <stdlib.h>

#define NB 64

/* counted only inside [lo, hi) */
void in_range(int n, const int *v, int lo, int hi, int *h)
{
    for (int i = 0; i < n; i++)
        if (v[i] >= lo && v[i] < hi)
            h[v[i] - lo]++;
}

/* a division computed only when its divisor is not zero (the dividend, read only then
 * in the canonical IR, is copied for the iterations between the first and the last
 * update) */
void ratios(int n, const int *num, const int *den, int *h)
{
    for (int i = 0; i < n; i++) {
        int a = num[i], b = den[i];
        if (b != 0)
            h[(a / b) & (NB - 1)]++;
    }
}

/* near-miss: the second test is on a value read only when the first holds, stays */
void quotients(int n, const int *num, const int *den, long *h)
{
    for (int i = 0; i < n; i++) {
        int a = num[i], b = den[i];
        if (b != 0) {
            int q = a / b;
            if (q >= 0 && q < NB)
                h[q] += 1;
        }
    }
}

/* the update on the branch's false side; the test is a bit of the value */
void odd_ones(int n, const unsigned *v, int *h)
{
    for (int i = 0; i < n; i++) {
        unsigned x = v[i];
        if (!(x & 1u))
            continue;
        h[(x >> 1) % NB]++;
    }
}

/* floating-point bins, positive weights only (CAS atomics) */
void weighted(long n, const int *key, const float *w, float *h)
{
    for (long i = 0; i < n; i++)
        if (w[i] > 0.0f)
            h[key[i] & (NB - 1)] += w[i];
}

/* near-miss: the test reads the bin itself (a saturating count), stays as it is */
/* reads under its test and uses its iteration's number: counted from the first active one */
void indexed(int n, const int *key, const float *w, float *h)
{
    for (int i = 0; i < n; i++)
        if (w[i] > 0.0f)
            h[(key[i] + i) & (NB - 1)] += w[i];
}

void saturating(int n, const unsigned char *k, int *h)
{
    for (int i = 0; i < n; i++)
        if (h[k[i] % NB] < 3)
            h[k[i] % NB]++;
}

/* the key is read only under the test (a bool, `trunc` to i1 in the IR) */
void masked(int n, const _Bool *mask, const unsigned char *k, int *h)
{
    for (int i = 0; i < n; i++)
        if (mask[i])
            h[k[i] % NB]++;
}

/* a division under a test nested in another, both tests on values every iteration
 * reads: the quotient is computed only where the divisor is not zero (a generated
 * kernel that divided anyway would stop a CPU device with SIGFPE) */
void nested(int n, const int *num, const int *den, int *h)
{
    for (int i = 0; i < n; i++) {
        int a = num[i], b = den[i];
        if ((a ^ b) >= 0 && b != 0) {
            int q = a / b;
            if (q < NB)
                h[q]++;
        }
    }
}

static unsigned next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static void print_ints(const char *name, const int *h, int count)
{
    printf("%s", name);
    for (int b = 0; b < count; b++)
        printf(" %d", h[b]);
    printf("\n");
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    int overlap = argc > 3 ? atoi(argv[3]) : 0;
    int size = n > 0 ? n : 1;
    int *v = malloc(sizeof(int) * (size + 2 * NB));
    int *num = malloc(sizeof(int) * size), *den = malloc(sizeof(int) * size);
    unsigned *u = malloc(sizeof(unsigned) * size);
    int *key = malloc(sizeof(int) * size);
    float *w = malloc(sizeof(float) * size);
    unsigned char *bytes = malloc(size);
    _Bool *mask = malloc(size);
    int h[NB] = {0}, odd[NB] = {0}, sat[NB] = {0}, masked_h[NB] = {0}, ratio[NB] = {0};
    int nest[NB] = {0};
    long q[NB] = {0};
    float fh[NB] = {0};
    for (int i = 0; i < size + 2 * NB; i++)
        v[i] = (int)(next(&seed) % 200) - 70;
    for (int i = 0; i < size; i++) {
        num[i] = (int)(next(&seed) % 400) - 50;
        den[i] = (int)(next(&seed) % 9) - 2; /* zero now and then */
        u[i] = next(&seed);
        key[i] = (int)next(&seed);
        w[i] = (float)(next(&seed) % 8) * 0.25f - 0.5f; /* sums stay exact */
        bytes[i] = (unsigned char)next(&seed);
        mask[i] = next(&seed) % 3 == 0;
    }
    /* overlap: the bins are the data read, the guard must refuse */
    int *bins = overlap ? v : h;
    in_range(n, v, -10, -10 + NB, bins);
    print_ints("in_range", bins, NB);
    ratios(n, num, den, ratio);
    print_ints("ratios", ratio, NB);
    quotients(n, num, den, q);
    printf("quotients");
    for (int b = 0; b < NB; b++)
        printf(" %ld", q[b]);
    printf("\n");
    odd_ones(n, u, odd);
    print_ints("odd", odd, NB);
    weighted(n, key, w, fh);
    printf("weighted");
    for (int b = 0; b < NB; b++)
        printf(" %.2f", (double)fh[b]);
    printf("\n");
    /* weights that start late: the active iterations begin past the middle */
    float *late = malloc(sizeof(float) * size);
    float fl[NB] = {0};
    for (int i = 0; i < size; i++)
        late[i] = i < n / 2 ? -w[i] * w[i] : w[i];
    weighted(n, key, late, fl);
    printf("weighted_late");
    for (int b = 0; b < NB; b++)
        printf(" %.2f", (double)fl[b]);
    printf("\n");
    float fi[NB] = {0};
    indexed(n, key, late, fi);
    printf("indexed");
    for (int b = 0; b < NB; b++)
        printf(" %.2f", (double)fi[b]);
    printf("\n");
    saturating(n, bytes, sat);
    print_ints("saturating", sat, NB);
    masked(n, mask, bytes, masked_h);
    print_ints("masked", masked_h, NB);
    nested(n, num, den, nest);
    print_ints("nested", nest, NB);
    return 0;
}
