// corpus: Histogram, pair counts of the angular separation of points on a sphere: each pair's bin is found by a binary search over the bin edges, then one of three updates adds to it
// args: test=300 1 bench=6000 2
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NBINS 20

/* bins[b] counts the pairs (i < j) whose dot product falls between edges[b-1] and
   edges[b] (edges decrease from 1); bins has NBINS + 2 entries */
void pair_histogram(const float *x, const float *y, const float *z, int n,
                    const float *edges, int nbins, long *bins)
{
    for (int i = 0; i < n - 1; i++) {
        const float xi = x[i], yi = y[i], zi = z[i];
        for (int j = i + 1; j < n; j++) {         // expect: Histogram in pair_histogram
            float dot = xi * x[j] + yi * y[j] + zi * z[j];
            int lo = 0, hi = nbins;
            while (hi > lo + 1) {
                int k = (lo + hi) / 2;
                if (dot >= edges[k])
                    hi = k;
                else
                    lo = k;
            }
            if (dot >= edges[lo])
                bins[lo] += 1;
            else if (dot < edges[hi])
                bins[hi + 1] += 1;
            else
                bins[hi] += 1;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int reps = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;

    float *x = malloc((size_t)n * sizeof *x);
    float *y = malloc((size_t)n * sizeof *y);
    float *z = malloc((size_t)n * sizeof *z);
    if (!x || !y || !z) return 1;
    for (int i = 0; i < n; i++) {
        double th = 0.017 * (double)((i * 37) % 181), ph = 0.0349 * (double)((i * 53) % 180);
        x[i] = (float)(sin(th) * cos(ph));
        y[i] = (float)(sin(th) * sin(ph));
        z[i] = (float)cos(th);
    }
    float edges[NBINS + 1];
    for (int b = 0; b <= NBINS; b++)
        edges[b] = 1.0f - 2.0f * (float)b / (float)NBINS;
    long bins[NBINS + 2];
    for (int b = 0; b < NBINS + 2; b++)
        bins[b] = 0;

    for (int r = 0; r < reps; r++)
        pair_histogram(x, y, z, n, edges, NBINS, bins);

    long total = 0;
    for (int b = 0; b < NBINS + 2; b++)           // expect: Reduction in main
        total += bins[b];
    printf("n = %d reps = %d pairs = %ld\n", n, reps, total);
    for (int b = 0; b < NBINS + 2; b += 3)
        printf("bins[%d] = %ld\n", b, bins[b]);
    free(x);
    free(y);
    free(z);
    return 0;
}
