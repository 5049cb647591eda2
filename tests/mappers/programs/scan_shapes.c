/* Scans in the forms scan.idl finds, each replaced by the scan mapper, and calls the
   guard must keep on the host. Prints every output, so that the original and the
   accelerated program can be compared line by line. */
#include <stdio.h>
#include <stdlib.h>

/* exclusive, the running value in a register: the offsets of a counting sort */
void offsets(const int *count, int *start, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        start[i] = s;
        s += count[i];
    }
}

/* inclusive, 64-bit, a long counter */
void running(const long *x, long *y, long n, long first)
{
    long s = first;
    for (long i = 0; i < n; i++) {
        s += x[i];
        y[i] = s;
    }
}

/* exclusive, the total returned: the size of what the offsets lay out */
long layout(const long *size, long *at, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        at[i] = s;
        s += size[i];
    }
    return s;
}

/* in place: the running value kept in the array (NAS IS's key counts) */
void accumulate(int *a, int n)
{
    for (int i = 0; i < n - 1; i++)
        a[i + 1] += a[i];
}

/* the running value read back from the output, one element behind */
void from_sizes(const int *size, int *out, int n)
{
    out[0] = 7;
    for (int i = 1; i < n; i++)
        out[i] = out[i - 1] + size[i - 1];
}

/* NAS IS's bucket pointers: the element copied from the one before, then added to after
   a read that may be the same memory (for all the compiler knows), so the copy stays */
void bucket_pointers(int *ptrs, int (*size)[64], int buckets)
{
    ptrs[0] = 0;
    for (int i = 1; i < buckets; i++) {
        ptrs[i] = ptrs[i - 1];
        ptrs[i] += size[0][i - 1];
    }
}

/* exclusive and in place: each element read, then replaced by the sum before it */
void shift_in_place(int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        int t = a[i];
        a[i] = s;
        s += t;
    }
}

/* the output's stride a parameter: with k = 0 every trip writes out[0] */
void spread(const int *x, int *out, int n, int k)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        out[i * k] = s;
        s += x[i];
    }
}

/* the output's address read through a record on every trip (stored through a type that
   may alias anything, so the compiler reloads it): a store may move it */
typedef long __attribute__((may_alias)) any_long;

struct holder {
    long n;
    any_long *base;
};

void through(struct holder *h, const long *x, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        h->base[i] = s;
        s += x[i];
    }
}

/* products wrap around as the loop's do */
void products(const unsigned *x, unsigned *y, int n)
{
    unsigned p = 1;
    for (int i = 0; i < n; i++) {
        p *= x[i];
        y[i] = p;
    }
}

static unsigned checksum(const void *data, long bytes)
{
    const unsigned char *b = data;
    unsigned h = 2166136261u;
    for (long i = 0; i < bytes; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n < 2)
        n = 2;
    int *count = malloc((size_t)(n + 1) * sizeof *count);
    int *start = malloc((size_t)(n + 1) * sizeof *start);
    long *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    unsigned *u = malloc((size_t)n * sizeof *u), *v = malloc((size_t)n * sizeof *v);
    for (int i = 0; i < n; i++) {
        count[i] = (i * 7919) % 13 - 3;
        x[i] = (long)((i * 104729L) % 1000003) * 4099L - 2000000000L;
        u[i] = 2u * (unsigned)i + 1u;
    }
    count[n] = 5;

    offsets(count, start, n);
    printf("offsets %u %d\n", checksum(start, (long)n * 4), start[n - 1]);
    long total = layout(x, y, n);
    printf("layout %u %ld\n", checksum(y, (long)n * 8), total);
    running(x, y, n, 123456789012345L);
    printf("running %u %ld\n", checksum(y, (long)n * 8), y[n - 1]);
    products(u, v, n);
    printf("products %u %u\n", checksum(v, (long)n * 4), v[n - 1]);
    int(*sizes)[64] = malloc(sizeof *sizes);
    for (int i = 0; i < 64; i++)
        sizes[0][i] = (i * 37) % 11;
    int ptrs[64];
    bucket_pointers(ptrs, sizes, 64);
    printf("bucket_pointers %u %d\n", checksum(ptrs, 64 * 4), ptrs[63]);
    free(sizes);
    for (int i = 0; i <= n; i++)
        start[i] = count[i];
    shift_in_place(start, n);
    printf("shift_in_place %u %d\n", checksum(start, (long)n * 4), start[n - 1]);
    spread(count, start, n, 1);
    printf("spread %u %d\n", checksum(start, (long)n * 4), start[n - 1]);
    spread(count, start, n, 0);
    printf("spread0 %d\n", start[0]);
    /* The record inside the output, its base the output's own first element: the fourth
       store overwrites the base, and the loop goes on writing where the new base says. */
    long *cells = calloc((size_t)n + 8, sizeof *cells), *elsewhere = calloc((size_t)n + 8, 8);
    struct holder *h = (struct holder *)(cells + 2);
    h->base = cells;
    long *ones = malloc((size_t)n * sizeof *ones);
    for (int i = 0; i < n; i++)
        ones[i] = 1;
    ones[0] = (long)elsewhere;
    ones[1] = ones[2] = 0;
    through(h, ones, n);
    long moved = (long)elsewhere;  /* addresses differ from run to run: print offsets */
    long fourth = elsewhere[4] ? elsewhere[4] - moved : -1, last = elsewhere[n - 1];
    printf("through %ld %ld %ld %ld\n", cells[0], cells[3] - moved, fourth,
           last ? last - moved : -1);
    free(cells);
    free(elsewhere);
    free(ones);
    from_sizes(count, start, n);
    printf("from_sizes %u %d\n", checksum(start, (long)n * 4), start[n - 1]);
    for (int i = 0; i <= n; i++)
        start[i] = count[i];
    accumulate(start, n + 1);
    printf("accumulate %u %d\n", checksum(start, (long)(n + 1) * 4), start[n]);

    /* Calls the guard keeps on the host: the output one element into the input (each
       trip reads what the trip before stored), and the in-place scan of a part. */
    for (int i = 0; i <= n; i++)
        start[i] = count[i];
    offsets(start, start + 1, n);
    printf("overlapping %u %d\n", checksum(start, (long)(n + 1) * 4), start[n]);
    accumulate(start + n / 2, n - n / 2);
    printf("part %u %d\n", checksum(start, (long)(n + 1) * 4), start[n]);
    free(count);
    free(start);
    free(x);
    free(y);
    free(u);
    free(v);
    return 0;
}
