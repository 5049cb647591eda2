// corpus: minimum and maximum of integer and double data (if form, ternary, fmin), counting down, long counters
// args: test=3000 2 bench=4000000 110
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* minmax: smallest and largest element of a[0..n), scanned from the end */
void minmax(const int *a, long n, int *lo, int *hi)
{
    int mn = a[n - 1], mx = a[n - 1];
    for (long i = n - 1; i >= 0; i--) {   // expect: Reduction in minmax
        if (a[i] < mn)
            mn = a[i];
        if (a[i] > mx)
            mx = a[i];
    }
    *lo = mn;
    *hi = mx;
}

/* max_abs_diff: largest |x[i] - y[i]|, ternary form */
double max_abs_diff(const double *x, const double *y, long n)
{
    double m = 0.0;
    for (long i = 0; i < n; i++) {   // expect: Reduction in max_abs_diff
        double d = fabs(x[i] - y[i]);
        m = d > m ? d : m;
    }
    return m;
}

/* min_value: smallest x[i], written with fmin */
double min_value(const double *x, long n)
{
    double m = INFINITY;
    for (long i = 0; i < n; i++)   // expect: Reduction in min_value
        m = fmin(m, x[i]);
    return m;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;

    int *a = malloc((size_t)n * sizeof *a);
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!a || !x || !y)
        return 1;
    unsigned seed = 7u;
    for (long i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = (int)((seed >> 8) % 2000003u) - 1000000;
        x[i] = sin(0.001 * (double)i);
        y[i] = cos(0.0007 * (double)i) * 0.5;
    }

    int *lo = malloc((size_t)iters * sizeof *lo), *hi = malloc((size_t)iters * sizeof *hi);
    double *dmax = malloc((size_t)iters * sizeof *dmax), *vmin = malloc((size_t)iters * sizeof *vmin);
    if (!lo || !hi || !dmax || !vmin)
        return 1;
    for (int it = 0; it < iters; it++) {
        a[it % n] = -1000001 - it;   /* moves the minimum between calls */
        minmax(a, n, &lo[it], &hi[it]);
        dmax[it] = max_abs_diff(x, y, n - it % 4);
        vmin[it] = min_value(y, n - it % 4);
    }

    long isum = 0;
    double dsum = 0.0;
    for (int it = 0; it < iters; it++) {   // expect: Reduction in main
        isum += (long)lo[it] + hi[it];
        dsum += dmax[it] + vmin[it];
    }
    printf("min %d max %d maxdiff %.10g minval %.10g\n", lo[0], hi[0], dmax[0], vmin[0]);
    printf("checksums %ld %.10g\n", isum, dsum);
    free(lo);
    free(hi);
    free(dmax);
    free(vmin);
    free(a);
    free(x);
    free(y);
    return 0;
}
