// corpus: inclusive prefix sum (running total) of a double array, carried through memory
// near-miss: a[i] = a[i-1] + b[i] reads the value stored by the previous iteration; a scan, not a reduction
// args: test=1000 3 bench=4000000 400
#include <stdio.h>
#include <stdlib.h>

/* cumsum: a[i] = b[0] + ... + b[i] */
void cumsum(double *a, const double *b, int n)
{
    a[0] = b[0];
    for (int i = 1; i < n; i++)   // expect-none: Reduction; expect: Scan in cumsum
        a[i] = a[i - 1] + b[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;

    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    double *last = malloc((size_t)iters * sizeof *last);
    if (!a || !b || !last)
        return 1;
    for (int i = 0; i < n; i++)
        b[i] = (double)((i * 29) % 23) * 0.125 - 1.0;

    for (int it = 0; it < iters; it++) {
        b[it % n] += 0.5;
        cumsum(a, b, n);
        last[it] = a[n - 1];
    }

    double cs = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        cs += a[i];
    printf("total %.10g a[n/2] %.10g\n", a[n - 1], a[n / 2]);
    printf("sum of prefixes %.10g last0 %.10g\n", cs, last[0]);
    free(a);
    free(b);
    free(last);
    return 0;
}
