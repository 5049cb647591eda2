// corpus: Stencil, 1D 3-point smoothing with constant weights, out-of-place, pointer swap between sweeps, double, restrict, long counters
// args: test=1000 20 bench=1000000 3000
#include <stdio.h>
#include <stdlib.h>

/* out[i] = 0.25*in[i-1] + 0.5*in[i] + 0.25*in[i+1] for the interior; ends untouched. */
void smooth3(long n, const double *restrict in, double *restrict out)
{
    for (long i = 1; i < n - 1; i++)          // expect: Stencil in smooth3
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    long iters = argc > 2 ? atol(argv[2]) : 50;
    if (n < 3) n = 3;
    if (iters < 1) iters = 1;

    double *u = malloc((size_t)n * sizeof *u);
    double *v = malloc((size_t)n * sizeof *v);
    if (!u || !v) return 1;
    for (long i = 0; i < n; i++) {
        double f = (double)((i * 37) % 101) / 101.0;
        u[i] = f;
        v[i] = f;
    }

    for (long t = 0; t < iters; t++) {
        smooth3(n, u, v);
        double *tmp = u; u = v; v = tmp;
    }

    double sum = 0.0, wsum = 0.0;
    for (long i = 0; i < n; i++) {            // expect: Reduction in main
        sum += u[i];
        wsum += u[i] * (double)(i % 10);
    }
    printf("n = %ld iters = %ld\n", n, iters);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("u[n/2] = %.10g\n", u[n / 2]);
    free(u); free(v);
    return 0;
}
