// corpus: conditional histograms: integer values counted only inside [lo, hi), and a clamped float-range histogram
// args: test=5000 2 bench=6000000 60
#include <stdio.h>
#include <stdlib.h>

#define NB 64

/* range_counts: h[v[i] - lo]++ for every v[i] in [lo, hi) (h has hi - lo bins) */
void range_counts(const int *v, int n, int lo, int hi, int *h)
{
    for (int i = 0; i < n; i++)   // expect: Histogram in range_counts
        if (v[i] >= lo && v[i] < hi)
            h[v[i] - lo]++;
}

/* energy_spectrum: NB bins over [emin, emax); values outside are skipped, the top bin is clamped */
void energy_spectrum(const double *e, int n, double emin, double emax, long *spec)
{
    double inv = (double)NB / (emax - emin);
    for (int i = 0; i < n; i++) {   // expect: Histogram in energy_spectrum
        if (e[i] >= emin && e[i] < emax) {
            int b = (int)((e[i] - emin) * inv);
            if (b > NB - 1)
                b = NB - 1;
            spec[b] += 1;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    int *v = malloc((size_t)n * sizeof *v);
    double *e = malloc((size_t)n * sizeof *e);
    int h[200] = { 0 };
    long spec[NB] = { 0 };
    if (!v || !e)
        return 1;
    unsigned seed = 17u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        v[i] = (int)((seed >> 10) % 1000u) - 300;   /* in [-300, 700) */
        e[i] = 5.0 * (double)((seed >> 4) % 4096u) / 4096.0 * (double)(1 + i % 3);   /* in [0, 15) */
    }

    for (int it = 0; it < iters; it++) {
        range_counts(v, n, -100, 100, h);
        energy_spectrum(e, n, 1.0, 11.0, spec);
    }

    long hs = 0, ss = 0;
    for (int b = 0; b < 200; b++)   // expect: Reduction in main
        hs += h[b];
    for (int b = 0; b < NB; b++)   // expect: Reduction in main
        ss += spec[b] * (b + 1);
    printf("h[0] %d h[100] %d h[199] %d in range %ld\n", h[0], h[100], h[199], hs);
    printf("spec[0] %ld spec[63] %ld weighted %ld\n", spec[0], spec[NB - 1], ss);
    free(v);
    free(e);
    return 0;
}
