// corpus: Scan, exclusive prefix sums with the running total in a register: counting-sort bucket offsets (int counts, int offsets, int counter) and record start offsets (long sizes, long starts, long counter, the grand total returned)
// args: test=1000 3 bench=4000000 300
#include <stdio.h>
#include <stdlib.h>

/* bucket_offsets: offset[i] = count[0] + ... + count[i-1] (offset[0] = 0), as a counting
   sort places its buckets */
void bucket_offsets(const int *count, int *offset, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {   // expect: Scan in bucket_offsets
        offset[i] = s;
        s += count[i];
    }
}

/* record_offsets: start[i] = size[0] + ... + size[i-1]; returns the sum of all sizes */
long record_offsets(const long *size, long *start, long n)
{
    long total = 0;
    for (long i = 0; i < n; i++) {   // expect: Scan in record_offsets
        start[i] = total;
        total += size[i];
    }
    return total;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    int *count = malloc((size_t)n * sizeof *count);
    int *offset = malloc((size_t)n * sizeof *offset);
    long *size = malloc((size_t)n * sizeof *size);
    long *start = malloc((size_t)n * sizeof *start);
    if (!count || !offset || !size || !start)
        return 1;
    unsigned seed = 2024u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        count[i] = (int)((seed >> 16) % 16u);           /* bucket sizes 0..15 */
        size[i] = 8L + (long)((seed >> 8) % 4093u);     /* record sizes 8..4100 bytes */
    }

    long grand = 0;
    for (int it = 0; it < iters; it++) {
        count[(it * 7919) % n] += 1;                    /* each pass sees different counts */
        size[(it * 104729L) % n] += (long)it;
        bucket_offsets(count, offset, n);
        grand += record_offsets(size, start, (long)n);
    }

    long so = 0, ss = 0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        so += offset[i];
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        ss += start[i] % 1000003L;
    printf("n %d iters %d\n", n, iters);
    printf("offset[1] %d offset[n/2] %d offset[n-1] %d\n", offset[n > 1 ? 1 : 0], offset[n / 2], offset[n - 1]);
    printf("start[n/3] %ld start[n-1] %ld grand %ld\n", start[n / 3], start[n - 1], grand);
    printf("sum of offsets %ld sum of starts mod %ld\n", so, ss);
    free(count);
    free(offset);
    free(size);
    free(start);
    return 0;
}
