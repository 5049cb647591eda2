// corpus: Scan, prefix sums carried through memory: NAS IS-style in-place accumulation of key counts (a[i+1] += a[i]) and bucket start offsets from sizes by the recurrence out[i] = out[i-1] + in[i-1]; the counts built by a histogram of keys
// args: test=1000 3 bench=4000000 300
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* accumulate_counts: a[i] = a[0] + ... + a[i], in place (NAS IS rank: key_buff1) */
void accumulate_counts(int *a, int n)
{
    int i;
    for (i = 0; i < n - 1; i++)   // expect: Scan in accumulate_counts
        a[i + 1] += a[i];
}

/* offsets_from_sizes: out[0] = 0, out[i] = in[0] + ... + in[i-1] */
void offsets_from_sizes(const int *in, int *out, int n)
{
    int i;
    out[0] = 0;
    for (i = 1; i < n; i++)   // expect: Scan in offsets_from_sizes
        out[i] = out[i - 1] + in[i - 1];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    int i;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;

    int *key = malloc((size_t)n * sizeof *key);
    int *count = calloc((size_t)n, sizeof *count);
    int *a = malloc((size_t)n * sizeof *a);
    int *out = malloc((size_t)n * sizeof *out);
    if (!key || !count || !a || !out)
        return 1;
    unsigned seed = 314159265u;
    for (i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        unsigned r1 = seed >> 8;
        seed = seed * 1664525u + 1013904223u;
        unsigned r2 = seed >> 8;
        key[i] = (int)(((unsigned long long)(r1 + r2) * (unsigned)n) >> 25);   /* two uniforms summed */
    }
    for (i = 0; i < n; i++)   // expect: Histogram in main
        count[key[i]]++;

    long last = 0;
    for (int it = 0; it < iters; it++) {
        count[(it * 7919) % n] += 1;                  /* each pass sees different counts */
        memcpy(a, count, (size_t)n * sizeof *a);
        accumulate_counts(a, n);
        offsets_from_sizes(count, out, n);
        last += a[n - 1] + out[n / 2];
    }

    long sa = 0, so = 0;
    for (i = 0; i < n; i++) {   // expect: Reduction in main
        sa += a[i];
        so += out[i];
    }
    printf("n %d iters %d\n", n, iters);
    printf("a[n/2] %d a[n-1] %d sum %ld\n", a[n / 2], a[n - 1], sa);
    printf("out[1] %d out[n/2] %d out[n-1] %d sum %ld\n", out[1], out[n / 2], out[n - 1], so);
    printf("last counts %ld\n", last);
    free(key);
    free(count);
    free(a);
    free(out);
    return 0;
}
