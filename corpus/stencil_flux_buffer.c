// corpus: Stencil, fluxes along one line of a 5-component grid through a 1D buffer of records (LU style): loop bounds and the first index are globals, the buffer is filled from the points i and i-1, then differenced at i and i+1 into the grid
// args: test=12 2 bench=120 20
#include <stdio.h>
#include <stdlib.h>

#define MAXN 122

static double u[MAXN][MAXN][5];
static double frct[MAXN][MAXN][5];
static double flux[MAXN][5];
static int ist, iend, nx;
static double tx3 = 0.125, dx1 = 0.75;

/* One line j: the flux of every component between points i-1 and i, then its
   difference and a second difference of u added to the right-hand side. */
void line_fluxes(int j)
{
    for (int i = ist; i < nx; i++) {                           // expect: Stencil in line_fluxes
        double r = 1.0 / u[j][i][0], rm = 1.0 / u[j][i - 1][0];
        flux[i][1] = tx3 * (u[j][i][1] * r - u[j][i - 1][1] * rm);
        flux[i][2] = tx3 * (u[j][i][2] * r - u[j][i - 1][2] * rm);
        flux[i][3] = tx3 * (u[j][i][3] * r - u[j][i - 1][3] * rm);
        flux[i][4] = 0.5 * tx3 * (u[j][i][4] * r - u[j][i - 1][4] * rm);
    }
    for (int i = ist; i < iend; i++) {                         // expect: Stencil in line_fluxes
        frct[j][i][0] = frct[j][i][0] + dx1 * (u[j][i - 1][0] - 2.0 * u[j][i][0] + u[j][i + 1][0]);
        frct[j][i][1] = frct[j][i][1] + (flux[i + 1][1] - flux[i][1])
            + dx1 * (u[j][i - 1][1] - 2.0 * u[j][i][1] + u[j][i + 1][1]);
        frct[j][i][2] = frct[j][i][2] + (flux[i + 1][2] - flux[i][2]);
        frct[j][i][3] = frct[j][i][3] + (flux[i + 1][3] - flux[i][3]);
        frct[j][i][4] = frct[j][i][4] + (flux[i + 1][4] - flux[i][4]);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 32;
    int steps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 4) n = 4;
    if (n > MAXN) n = MAXN;
    if (steps < 1) steps = 1;
    ist = 1;
    iend = n - 1;
    nx = n;
    for (int j = 0; j < MAXN; j++)
        for (int i = 0; i < MAXN; i++)
            for (int m = 0; m < 5; m++) {
                u[j][i][m] = 1.0 + (double)((j * 3 + i * 7 + m) % 17) / 17.0;
                frct[j][i][m] = 0.0;
            }

    for (int s = 0; s < steps; s++)
        for (int j = 1; j < n - 1; j++)
            line_fluxes(j);

    double sum = 0.0;
    const double *all = &frct[0][0][0];
    for (long t = 0; t < (long)MAXN * MAXN * 5; t++)           // expect: Reduction in main
        sum += all[t];
    printf("n = %d steps = %d\n", n, steps);
    printf("sum = %.10g\n", sum);
    printf("frct[2][3] = %.10g %.10g %.10g\n", frct[2][3][0], frct[2][3][1], frct[2][3][4]);
    return 0;
}
