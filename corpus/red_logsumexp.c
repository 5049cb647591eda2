// corpus: numerically stable log-sum-exp and softmax (max reduction, sum of exp of the read value, long counters)
// args: test=2000 3 bench=1000000 130
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* max_elem: largest x[i] */
double max_elem(const double *x, long n)
{
    double m = -INFINITY;
    for (long i = 0; i < n; i++)   // expect: Reduction in max_elem
        if (x[i] > m)
            m = x[i];
    return m;
}

/* sum_exp_shift: sum of exp(x[i] - shift) */
double sum_exp_shift(const double *x, long n, double shift)
{
    double s = 0.0;
    for (long i = 0; i < n; i++)   // expect: Reduction in sum_exp_shift
        s += exp(x[i] - shift);
    return s;
}

/* softmax: p[i] = exp(x[i] - lse), returns lse = log(sum exp(x)) */
double softmax(const double *x, double *p, long n)
{
    double m = max_elem(x, n);
    double lse = m + log(sum_exp_shift(x, n, m));
    for (long i = 0; i < n; i++)   // expect: Map in softmax
        p[i] = exp(x[i] - lse);
    return lse;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    double *x = malloc((size_t)n * sizeof *x), *p = malloc((size_t)n * sizeof *p);
    if (!x || !p)
        return 1;
    for (long i = 0; i < n; i++)
        x[i] = 20.0 * sin(0.37 * (double)i) + 0.001 * (double)(i % 1000);

    double lse = 0.0;
    for (int it = 0; it < iters; it++) {
        lse = softmax(x, p, n);
        x[it % n] += 0.5;   /* the next call sees a slightly different input */
    }

    double total = 0.0, weighted = 0.0;
    for (long i = 0; i < n; i++) {   // expect: Reduction in main
        total += p[i];
        weighted += p[i] * x[i];
    }
    printf("lse %.10g\n", lse);
    printf("sum p %.10g  E[x] %.10g\n", total, weighted);
    free(x);
    free(p);
    return 0;
}
