// corpus: stencil marked in place, never replaced, lexicographic SOR sweeps for a Poisson problem on fixed-size global 2D arrays; the residual it reports is a true out-of-place 5-point stencil
// args: test=32 6 bench=1024 200
#include <stdio.h>
#include <stdlib.h>

#define NG 1024

double u[NG][NG];
double f[NG][NG];
double res[NG][NG];

/* One SOR sweep with relaxation factor w on the interior of the n x n grid. */
void sor_sweep(int n, double w, double h2)
{
    for (int i = 1; i < n - 1; i++) {          // expect: Stencil in sor_sweep (in place)
        for (int j = 1; j < n - 1; j++) {
            double gs = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] + h2 * f[i][j]);
            u[i][j] = (1.0 - w) * u[i][j] + w * gs;
        }
    }
}

/* res = f + lap(u) / h2 on the interior (out of place). */
void residual(int n, double inv_h2)
{
    for (int i = 1; i < n - 1; i++) {          // expect: Stencil in residual
        for (int j = 1; j < n - 1; j++)
            res[i][j] = f[i][j] + inv_h2 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]
                                            - 4.0 * u[i][j]);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int sweeps = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 3) n = 3;
    if (n > NG) n = NG;
    if (sweeps < 1) sweeps = 1;
    double h = 1.0 / (double)(n - 1);

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            u[i][j] = (j == 0) ? 1.0 : 0.0;       /* warm left edge */
            f[i][j] = (double)((i * 5 + j * 2) % 9) / 9.0 - 0.5;
        }

    for (int s = 0; s < sweeps; s++)
        sor_sweep(n, 1.5, h * h);
    residual(n, 1.0 / (h * h));

    double r2 = 0.0, us = 0.0;
    for (int i = 1; i < n - 1; i++) {          // expect: Reduction in main
        r2 += res[i][n / 2] * res[i][n / 2];
        us += u[i][i];
    }
    printf("n = %d sweeps = %d\n", n, sweeps);
    printf("res2 = %.10g\n", r2);
    printf("udiag = %.10g\n", us);
    printf("u[2][1] = %.10g\n", u[2][1]);
    return 0;
}
