// corpus: Histogram, an 8-bit saturating histogram of pixel values, counts of keys per bucket where each bucket's end is read again on every trip (int arrays that may alias the counts), and the row counts of a sparse matrix built from its entries, rowptr[col + 1] += len[i] with len[i] read again on every trip
// args: test=2000 3 bench=20000000 20
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NBINS 256
#define NBUCKETS 32

/* hist[img[i]]++ unless that bin is already at 255 */
void saturating_histogram(const unsigned char *img, int n, unsigned char *hist)
{
    for (int i = 0; i < n; i++) {                 // expect: Histogram in saturating_histogram
        unsigned int v = img[i];
        if (hist[v] < UINT8_MAX)
            ++hist[v];
    }
}

/* counts[key[k]]++ for the keys of every bucket, bucket b spanning end[b-1] .. end[b] */
void count_per_bucket(const int *key, const int *end, int nb, int *counts)
{
    for (int b = 0; b < nb; b++) {
        int first = b > 0 ? end[b - 1] : 0;
        for (int k = first; k < end[b]; k++)      // expect: Histogram in count_per_bucket
            counts[key[k]]++;
    }
}

/* for every entry (i, c) of the rows' column lists: rowptr[c + 1] += len[i] */
void count_rows(const int *len, const int (*cols)[8], int nrows, int *rowptr)
{
    for (int i = 0; i < nrows; i++) {
        for (int e = 0; e < len[i]; e++) {        // expect: Histogram in count_rows
            int c = cols[i][e] + 1;
            rowptr[c] = rowptr[c] + len[i];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < NBUCKETS) n = NBUCKETS;
    if (reps < 1) reps = 1;

    unsigned char *img = malloc((size_t)n);
    int *key = malloc((size_t)n * sizeof *key);
    int *end = malloc(NBUCKETS * sizeof *end);
    int *counts = calloc(NBINS, sizeof *counts);
    unsigned char hist[NBINS];
    if (!img || !key || !end || !counts) return 1;
    unsigned int seed = 7u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        img[i] = (unsigned char)((seed >> 24) % 64);
        key[i] = (int)((seed >> 8) % NBINS);
    }
    for (int b = 0; b < NBUCKETS; b++)
        end[b] = (int)((long)n * (b + 1) / NBUCKETS);
    int nrows = n / 8;
    int *len = malloc((size_t)nrows * sizeof *len);
    int (*cols)[8] = malloc((size_t)nrows * sizeof *cols);
    int *rowptr = calloc((size_t)nrows + 1, sizeof *rowptr);
    if (!len || !cols || !rowptr) return 1;
    for (int i = 0; i < nrows; i++) {
        len[i] = 1 + (i * 5) % 8;
        for (int e = 0; e < 8; e++)
            cols[i][e] = (i * 3 + e * 7) % nrows;
    }

    for (int r = 0; r < reps; r++) {
        for (int v = 0; v < NBINS; v++)
            hist[v] = 0;
        saturating_histogram(img, n, hist);
        count_per_bucket(key, end, NBUCKETS, counts);
        count_rows(len, (const int (*)[8])cols, nrows, rowptr);
    }

    long hs = 0, cs = 0;
    for (int v = 0; v < NBINS; v++)               // expect: Reduction in main
        hs += hist[v];
    for (int v = 0; v < NBINS; v++)               // expect: Reduction in main
        cs += (long)counts[v] * (v + 1);
    printf("n = %d reps = %d\n", n, reps);
    printf("hist sum = %ld hist[0] = %d hist[63] = %d\n", hs, hist[0], hist[63]);
    printf("counts checksum = %ld counts[5] = %d\n", cs, counts[5]);
    long rs = 0;
    for (int i = 0; i <= nrows; i++)              // expect: Reduction in main
        rs += (long)rowptr[i] * (i % 13 + 1);
    printf("rows checksum = %ld\n", rs);
    free(len);
    free(cols);
    free(rowptr);
    free(img);
    free(key);
    free(end);
    free(counts);
    return 0;
}
