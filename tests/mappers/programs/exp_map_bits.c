// exp of many doubles, mapped; prints a hash of every result's bits, so that a result
// one bit apart from the C library's shows. Args: count.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void exponentials(const double *x, double *y, long n)
{
    for (long i = 0; i < n; i++)
        y[i] = exp(x[i]);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!x || !y)
        return 1;
    for (long i = 0; i < n; i++)
        x[i] = -20.0 + 40.0 * (double)i / (double)n + 1e-3 * sin((double)i);
    exponentials(x, y, n);
    uint64_t hash = 1469598103934665603ull;
    for (long i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &y[i], sizeof bits);
        hash = (hash ^ bits) * 1099511628211ull;
    }
    printf("%016llx %.17g\n", (unsigned long long)hash, y[n / 2]);
    free(x);
    free(y);
    return 0;
}
