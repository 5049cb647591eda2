// corpus: dot product of two double vectors (restrict pointers, int counter), taken at shifted offsets
// args: test=1000 4 bench=1000000 3000
#include <stdio.h>
#include <stdlib.h>

/* dot: returns the sum over i in [0, n) of x[i] * y[i] */
double dot(const double *restrict x, const double *restrict y, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in dot
        s += x[i] * y[i];
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    double *x = malloc((size_t)(n + 8) * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    double *res = malloc((size_t)iters * sizeof *res);
    if (!x || !y || !res)
        return 1;
    for (int i = 0; i < n + 8; i++)
        x[i] = (double)((i * 37) % 101) / 101.0 - 0.5;
    for (int i = 0; i < n; i++)
        y[i] = 1.0 / (1.0 + (double)(i % 17));

    /* correlation of y against x at lags 0..7, cycled */
    for (int it = 0; it < iters; it++)
        res[it] = dot(x + it % 8, y, n);

    double total = 0.0;
    for (int it = 0; it < iters; it++)   // expect: Reduction in main
        total += res[it];

    printf("lag0 %.10g\n", res[0]);
    printf("total %.10g\n", total);
    free(x);
    free(y);
    free(res);
    return 0;
}
