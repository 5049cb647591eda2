/* The driver half of a two-file program (see multi_kernel.c). */
#include <stdio.h>
#include <stdlib.h>

double weighted_sum(long n, const double *w, const double *v);

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    double *w = malloc(sizeof(double) * (n + 1)), *v = malloc(sizeof(double) * (n + 1));
    for (long i = 0; i < n; i++) {
        w[i] = (double)(i % 13) - 6.0;
        v[i] = 1.0 / (double)(i + 1);
    }
    printf("%.12g\n", weighted_sum(n, w, v));
    return 0;
}
