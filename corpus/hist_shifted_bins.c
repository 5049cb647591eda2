// corpus: histograms whose bin's address LLVM splits in two: the entries of each row counted one bin on, as compressed rows are built (start[row + 1] += size), and bins of 64 rows of 4 with a long counter (h[(i & 63) * 4 + (tag[i] & 3)])
// args: test=20000 512 2 bench=8000000 4096 60
#include <stdio.h>
#include <stdlib.h>

/* count_rows: start[r + 1] += size[k] for every entry k of row r; start[0] stays as it is,
   so that a prefix sum afterwards gives each row's first entry */
void count_rows(const int *row, const int *size, long n, int *start)
{
    for (long k = 0; k < n; k++)   // expect: Histogram in count_rows
        start[row[k] + 1] += size[k];
}

/* row_bins: h[r * 4 + t] for the 64 rows r = i % 64 and the tag's low two bits t */
void row_bins(const int *tag, long n, long *h)
{
    for (long i = 0; i < n; i++)   // expect: Histogram in row_bins
        h[(i & 63) * 4 + (tag[i] & 3)]++;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    int rows = argc > 2 ? atoi(argv[2]) : 512;
    int iters = argc > 3 ? atoi(argv[3]) : 1;
    if (n < 1)
        n = 1;
    if (rows < 1)
        rows = 1;
    if (iters < 1)
        iters = 1;

    int *row = malloc((size_t)n * sizeof *row), *size = malloc((size_t)n * sizeof *size);
    int *start = calloc((size_t)rows + 1, sizeof *start);
    long *h = calloc(256, sizeof *h);
    if (!row || !size || !start || !h)
        return 1;
    unsigned seed = 2463534242u;
    for (long k = 0; k < n; k++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        row[k] = (int)(seed % (unsigned)rows);
        size[k] = (int)(seed >> 28) + 1;
    }

    for (int it = 0; it < iters; it++) {
        count_rows(row, size, n, start);
        row_bins(size, n, h);
    }

    long sum = 0, weighted = 0;
    for (int r = 0; r <= rows; r++)   // expect: Reduction in main
        sum += start[r];
    for (int b = 0; b < 256; b++)   // expect: Reduction in main
        weighted += h[b] * (b + 1);
    printf("start[1] %d start[%d] %d entries %ld\n", start[1], rows, start[rows], sum);
    printf("h[0] %ld h[255] %ld weighted %ld\n", h[0], h[255], weighted);
    free(row);
    free(size);
    free(start);
    free(h);
    return 0;
}
