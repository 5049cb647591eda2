// corpus: near-miss Stencil, 1D smoothing whose neighbour offsets come from a data array (in[i - step[i]], in[i + step[i]])
// args: test=1000 10 bench=1000000 1000
// near-miss: the neighbour offset step[i] is read from memory, not a compile-time constant, so the access set is not a fixed stencil
#include <stdio.h>
#include <stdlib.h>

/* out[i] = 0.5*in[i] + 0.25*(in[i - s] + in[i + s]) with s = step[i] in {1, 2, 3}. */
void smooth_var(int n, const int *step, const double *in, double *out)
{
    for (int i = 3; i < n - 3; i++)           // expect-none: Stencil
        out[i] = 0.5 * in[i] + 0.25 * (in[i - step[i]] + in[i + step[i]]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 7) n = 7;
    if (iters < 1) iters = 1;

    int *step = malloc((size_t)n * sizeof *step);
    double *u = malloc((size_t)n * sizeof *u);
    double *v = malloc((size_t)n * sizeof *v);
    if (!step || !u || !v) return 1;
    unsigned s = 2024u;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;        /* integer LCG */
        step[i] = 1 + (int)((s >> 20) % 3u);
        double f = (double)((i * 13) % 29) / 29.0;
        u[i] = f;
        v[i] = f;
    }

    for (int t = 0; t < iters; t++) {
        smooth_var(n, step, u, v);
        double *tmp = u; u = v; v = tmp;
    }

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < n; i++) {             // expect: Reduction in main
        sum += u[i];
        wsum += u[i] * (double)step[i];
    }
    printf("n = %d iters = %d\n", n, iters);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("u[5] = %.10g\n", u[5]);
    free(step); free(u); free(v);
    return 0;
}
