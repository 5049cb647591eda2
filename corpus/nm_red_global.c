// corpus: running share of a total kept in a global: g_total is accumulated through memory and read again in the loop
// near-miss: the accumulator is a global in memory whose running value is used by another statement of the loop
// args: test=1000 3 bench=4000000 120
#include <stdio.h>
#include <stdlib.h>

double g_total;

/* running_share: frac[i] = a[i] / (a[0] + ... + a[i]), the total kept in g_total */
void running_share(const double *a, double *frac, int n)
{
    for (int i = 0; i < n; i++) {   // expect-none: Reduction
        g_total += a[i];
        frac[i] = a[i] / g_total;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    double *a = malloc((size_t)n * sizeof *a), *frac = malloc((size_t)n * sizeof *frac);
    if (!a || !frac)
        return 1;
    for (int i = 0; i < n; i++)
        a[i] = 1.0 + (double)((i * 17) % 10);

    for (int it = 0; it < iters; it++) {
        g_total = (double)it;
        running_share(a, frac, n);
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += frac[i];
    printf("total %.10g\n", g_total);
    printf("sum of shares %.10g frac[n-1] %.6e\n", cs, frac[n - 1]);
    free(a);
    free(frac);
    return 0;
}
