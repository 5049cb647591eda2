// corpus: inverse-power-style iteration: a solver function that resets its vectors on the host at entry, called again after main's own reduction and a host loop over part of the data (the solver is entered while copies are on the device)
// args: test=300 4 bench=2000000 40
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* solve: a few damped steps from x; resets z and r from x first, on the host */
void solve(const double *x, double *z, double *r, int n, double *out_norm)
{
    for (int i = 0; i < n; i++) {
        z[i] = 0.0;
        r[i] = x[i];
    }
    double rho = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in solve
        rho += r[i] * r[i];
    for (int step = 0; step < 3; step++) {
        double scale = 1.0 / (1.0 + sqrt(rho));
        for (int i = 0; i < n; i++) {   // expect: Map in solve
            z[i] += scale * r[i];
            r[i] -= 0.5 * scale * r[i];
        }
        rho = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in solve
            rho += r[i] * r[i];
    }
    *out_norm = sqrt(rho);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    double *x = malloc((size_t)n * sizeof *x);
    double *z = malloc((size_t)n * sizeof *z);
    double *r = malloc((size_t)n * sizeof *r);
    if (!x || !z || !r)
        return 1;
    for (int i = 0; i < n; i++)
        x[i] = 1.0 + (double)((i * 7) % 13) / 13.0;

    double norm = 0.0, zeta = 0.0;
    for (int it = 0; it < iters; it++) {
        solve(x, z, r, n, &norm);
        double zz = 0.0;
        for (int i = 0; i < n; i++)   // expect: Reduction in main
            zz += z[i] * z[i];
        /* normalise z into x: a host loop over x and z only */
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] = z[i] / sqrt(zz) + 0.01 * (double)(i % 3);
        zeta += norm;
        printf("it %d residual %.10g zz %.10g\n", it, norm, zz);
    }
    printf("zeta %.10g\n", zeta);
    free(x);
    free(z);
    free(r);
    return 0;
}
