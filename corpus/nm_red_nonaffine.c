// corpus: sum over a quadratic-residue sampling of an array, a[(i*i) % n]
// near-miss: the read index (i*i) % n is not affine in i, so by the catalogue this loop is not a Reduction
// args: test=1000 3 bench=2000000 120
#include <stdio.h>
#include <stdlib.h>

/* residue_sample_sum: sum over i in [0, m) of a[(i*i) mod n] */
double residue_sample_sum(const double *a, long n, long m)
{
    double s = 0.0;
    for (long i = 0; i < m; i++)   // expect-none: Reduction
        s += a[(i * i) % n];
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    double *a = malloc((size_t)n * sizeof *a);
    double *r = malloc((size_t)iters * sizeof *r);
    if (!a || !r)
        return 1;
    for (long i = 0; i < n; i++)
        a[i] = 1.0 / (1.0 + (double)(i % 97));

    for (int it = 0; it < iters; it++)
        r[it] = residue_sample_sum(a, n - it, n);

    double cs = 0.0;
    for (int it = 0; it < iters; it++)   // expect: Reduction in main
        cs += r[it];
    printf("first %.10g\n", r[0]);
    printf("checksum %.10g\n", cs);
    free(a);
    free(r);
    return 0;
}
