// corpus: Stencil, 3D 7-point explicit heat step on a flattened cube with an indexing macro, double, size_t counters, pointer swap
// args: test=16 6 bench=160 150
#include <stdio.h>
#include <stdlib.h>

#define IX(i, j, k) (((i) * n + (j)) * n + (k))

/* out = in + r * (sum of the 6 face neighbours - 6*in), interior of an n^3 cube. */
void heat7(size_t n, double r, const double *restrict in, double *restrict out)
{
    for (size_t i = 1; i < n - 1; i++) {       // expect: Stencil in heat7
        for (size_t j = 1; j < n - 1; j++) {
            for (size_t k = 1; k < n - 1; k++) {
                out[IX(i, j, k)] = in[IX(i, j, k)]
                    + r * (in[IX(i - 1, j, k)] + in[IX(i + 1, j, k)]
                           + in[IX(i, j - 1, k)] + in[IX(i, j + 1, k)]
                           + in[IX(i, j, k - 1)] + in[IX(i, j, k + 1)]
                           - 6.0 * in[IX(i, j, k)]);
            }
        }
    }
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 64;
    long steps = argc > 2 ? atol(argv[2]) : 10;
    if (n < 3) n = 3;
    if (steps < 1) steps = 1;

    double *a = malloc(n * n * n * sizeof *a);
    double *b = malloc(n * n * n * sizeof *b);
    if (!a || !b) return 1;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 0; k < n; k++) {
                double t0 = (double)((i * 5 + j * 3 + k) % 17) / 17.0;
                a[IX(i, j, k)] = t0;
                b[IX(i, j, k)] = t0;
            }

    for (long s = 0; s < steps; s++) {
        heat7(n, 0.1, a, b);
        double *tmp = a; a = b; b = tmp;
    }

    double sum = 0.0, sq = 0.0;
    for (size_t t = 0; t < n * n * n; t++) {   // expect: Reduction in main
        sum += a[t];
        sq += a[t] * a[t];
    }
    printf("n = %zu steps = %ld\n", n, steps);
    printf("sum = %.10g\n", sum);
    printf("sumsq = %.10g\n", sq);
    printf("a[1,2,3] = %.10g\n", a[IX(1, 2, 3)]);
    free(a); free(b);
    return 0;
}
