// corpus: running totals whose loops also store into the array being summed
// near-miss: each loop sums a[i] and stores into a[i+1], which the next iteration reads
// args: test=1000 3 bench=4000000 40
#include <stdio.h>
#include <stdlib.h>

/* carry_total: carries half of each sample into the next one, returns the sum of the carried samples */
double carry_total(double *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n - 1; i++) {   // expect-none: Reduction
        s += a[i];
        a[i + 1] += 0.5 * a[i];
    }
    return s + a[n - 1];
}

/* mean_forward: stores the running mean of a[0..i] into a[i+1] and keeps summing */
double mean_forward(double *a, int n)
{
    double s = 0.0;
    for (int i = 0; i < n - 1; i++) {   // expect-none: Reduction
        s += a[i];
        a[i + 1] = s / (double)(i + 1);
    }
    return s;
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
    if (!a || !b)
        return 1;
    double t1 = 0.0, t2 = 0.0;
    for (int it = 0; it < iters; it++) {
        for (int i = 0; i < n; i++) {
            a[i] = (double)((i * 13 + it) % 31) * 0.1 - 1.0;
            b[i] = a[i];
        }
        t1 = carry_total(a, n);
        t2 = mean_forward(b, n);
    }

    double ca = 0.0, cb = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        ca += a[i];
        cb += b[i];
    }
    printf("carry total %.10g mean-forward total %.10g\n", t1, t2);
    printf("checksums %.10g %.10g\n", ca, cb);
    free(a);
    free(b);
    return 0;
}
