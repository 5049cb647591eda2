// corpus: weighted histogram with float bins, h[(int)(x[i]*scale)] += w[i] (x in [0,1) by construction, restrict)
// args: test=5000 100 2 bench=4000000 1000 250
#include <stdio.h>
#include <stdlib.h>

/* bin_weights: h[(int)(x[i] * scale)] += w[i]; requires 0 <= x[i] < 1 and scale <= number of bins */
void bin_weights(const float *restrict x, const float *restrict w, int n, float scale, float *restrict h)
{
    for (int i = 0; i < n; i++)   // expect: Histogram in bin_weights
        h[(int)(x[i] * scale)] += w[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int nbins = argc > 2 ? atoi(argv[2]) : 100;
    int iters = argc > 3 ? atoi(argv[3]) : 1;
    if (n < 1)
        n = 1;
    if (nbins < 1 || nbins > 4096)
        nbins = 100;
    if (iters < 1)
        iters = 1;

    float *x = malloc((size_t)n * sizeof *x), *w = malloc((size_t)n * sizeof *w);
    float *h = calloc((size_t)nbins, sizeof *h);
    if (!x || !w || !h)
        return 1;
    unsigned seed = 4242u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        /* 12-bit fraction: x*scale is exact in float and below nbins for nbins <= 4096 */
        x[i] = (float)(seed >> 20) / 4096.0f;
        w[i] = 0.125f * (float)(1 + i % 4);   /* multiples of 1/8: bin sums stay exact */
    }

    for (int it = 0; it < iters; it++)
        bin_weights(x, w, n, (float)nbins, h);

    double total = 0.0;
    for (int b = 0; b < nbins; b++)   // expect: Reduction in main
        total += h[b];
    printf("h[0] %.10g h[mid] %.10g h[last] %.10g\n", (double)h[0], (double)h[nbins / 2],
           (double)h[nbins - 1]);
    printf("total weight %.10g\n", total);
    free(x);
    free(w);
    free(h);
    return 0;
}
