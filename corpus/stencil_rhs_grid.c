// corpus: Stencil, right-hand side of a 5-component CFD grid in the NAS style: global pointers to fixed-size grids, bounds read from a global array, each point's components updated in place from neighbours along one axis, 4th-order dissipation in a 4-deep nest
// args: test=10 2 bench=64 40
#include <stdio.h>
#include <stdlib.h>

#define MAXN 66

static double (*u)[MAXN][MAXN][5];
static double (*rhs)[MAXN][MAXN][5];
static double (*speed)[MAXN][MAXN];
static int grid_points[3];
static double dx1 = 0.75, dx2 = 0.5, tx2 = 0.125, dssp = 0.03125;

/* Fluxes along i: every component of rhs updated from u at i-1, i and i+1 (five
   stores per point, each reading the point's own value first). */
void flux_x(void)
{
    for (int k = 1; k <= grid_points[2] - 2; k++) {          // expect: Stencil in flux_x
        for (int j = 1; j <= grid_points[1] - 2; j++) {
            for (int i = 1; i <= grid_points[0] - 2; i++) {
                double up1 = speed[k][j][i + 1], um1 = speed[k][j][i - 1];
                rhs[k][j][i][0] = rhs[k][j][i][0]
                    + dx1 * (u[k][j][i + 1][0] - 2.0 * u[k][j][i][0] + u[k][j][i - 1][0])
                    - tx2 * (u[k][j][i + 1][1] - u[k][j][i - 1][1]);
                rhs[k][j][i][1] = rhs[k][j][i][1]
                    + dx2 * (u[k][j][i + 1][1] - 2.0 * u[k][j][i][1] + u[k][j][i - 1][1])
                    - tx2 * (u[k][j][i + 1][1] * up1 - u[k][j][i - 1][1] * um1);
                rhs[k][j][i][2] = rhs[k][j][i][2]
                    + dx2 * (u[k][j][i + 1][2] - 2.0 * u[k][j][i][2] + u[k][j][i - 1][2])
                    - tx2 * (u[k][j][i + 1][2] * up1 - u[k][j][i - 1][2] * um1);
                rhs[k][j][i][3] = rhs[k][j][i][3]
                    + dx2 * (u[k][j][i + 1][3] - 2.0 * u[k][j][i][3] + u[k][j][i - 1][3]);
                rhs[k][j][i][4] = rhs[k][j][i][4]
                    + dx1 * (u[k][j][i + 1][4] - 2.0 * u[k][j][i][4] + u[k][j][i - 1][4])
                    - tx2 * (u[k][j][i + 1][4] * up1 - u[k][j][i - 1][4] * um1);
            }
        }
    }
}

/* Fourth-order dissipation along k: five points of u along the outermost axis, each
   component in a loop of its own. */
void dissipation_z(void)
{
    for (int k = 3; k <= grid_points[2] - 4; k++) {          // expect: Stencil in dissipation_z
        for (int j = 1; j <= grid_points[1] - 2; j++) {
            for (int i = 1; i <= grid_points[0] - 2; i++) {
                for (int m = 0; m < 5; m++) {
                    rhs[k][j][i][m] = rhs[k][j][i][m] - dssp
                        * (u[k - 2][j][i][m] - 4.0 * u[k - 1][j][i][m] + 6.0 * u[k][j][i][m]
                           - 4.0 * u[k + 1][j][i][m] + u[k + 2][j][i][m]);
                }
            }
        }
    }
}

/* The speed of each point from its own components: no neighbour, not a stencil. */
void compute_speed(void)
{
    for (int k = 0; k < grid_points[2]; k++)   // expect: Map in compute_speed
        for (int j = 0; j < grid_points[1]; j++)
            for (int i = 0; i < grid_points[0]; i++)
                speed[k][j][i] = u[k][j][i][1] / u[k][j][i][0];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 24;
    int steps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 8) n = 8;
    if (n > MAXN) n = MAXN;
    if (steps < 1) steps = 1;
    grid_points[0] = n;
    grid_points[1] = n - 1;
    grid_points[2] = n - 2;

    u = malloc(sizeof(double) * MAXN * MAXN * MAXN * 5);
    rhs = malloc(sizeof(double) * MAXN * MAXN * MAXN * 5);
    speed = malloc(sizeof(double) * MAXN * MAXN * MAXN);
    if (!u || !rhs || !speed) return 1;
    for (int k = 0; k < MAXN; k++)
        for (int j = 0; j < MAXN; j++)
            for (int i = 0; i < MAXN; i++)
                for (int m = 0; m < 5; m++) {
                    u[k][j][i][m] = 1.0 + (double)((k * 7 + j * 5 + i * 3 + m) % 11) / 11.0;
                    rhs[k][j][i][m] = 0.0;
                }

    for (int s = 0; s < steps; s++) {
        compute_speed();
        flux_x();
        dissipation_z();
    }

    double sum = 0.0;
    const double *all = &rhs[0][0][0][0];
    for (long t = 0; t < (long)MAXN * MAXN * MAXN * 5; t++)   // expect: Reduction in main
        sum += all[t];
    printf("n = %d steps = %d\n", n, steps);
    printf("sum = %.10g\n", sum);
    printf("rhs[3][4][5] = %.10g %.10g %.10g %.10g %.10g\n", rhs[3][4][5][0], rhs[3][4][5][1],
           rhs[3][4][5][2], rhs[3][4][5][3], rhs[3][4][5][4]);
    free(u); free(rhs); free(speed);
    return 0;
}
