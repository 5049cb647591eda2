// corpus: Stencil, pencil buffers: each row of a grid copied into 1D lines, then differenced at i-1 and i+1 into the row of a banded system (five coefficients per point) and into a centred derivative
// args: test=40 bench=1200
#include <stdio.h>
#include <stdlib.h>

/* For every row j: the line of velocities and of a speed bound, then the tridiagonal
   coefficients of the implicit step from their neighbours along the line. */
void build_rows(int ny, int nx, const double *vel, const double *rho, double *lhs,
                double *cv, double *rhon, double dtt, double dtt2)
{
    for (int j = 0; j < ny; j++) {
        for (int i = 0; i < nx; i++) {   // expect: Map in build_rows
            cv[i] = vel[j * nx + i];
            rhon[i] = rho[j * nx + i] > 0.5 ? rho[j * nx + i] : 0.5;
        }
        for (int i = 1; i < nx - 1; i++) {                   // expect: Stencil in build_rows
            lhs[(j * nx + i) * 5 + 0] = 0.0;
            lhs[(j * nx + i) * 5 + 1] = -dtt2 * cv[i - 1] - dtt * rhon[i - 1];
            lhs[(j * nx + i) * 5 + 2] = 1.0 + 2.0 * dtt * rhon[i];
            lhs[(j * nx + i) * 5 + 3] = dtt2 * cv[i + 1] - dtt * rhon[i + 1];
            lhs[(j * nx + i) * 5 + 4] = 0.0;
        }
    }
}

/* A centred difference of one line into another. */
void derivative(int n, const double *line, double *out, double h)
{
    for (int i = 1; i < n - 1; i++)                          // expect: Stencil in derivative
        out[i] = (line[i + 1] - line[i - 1]) * h;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 3) n = 3;
    int ny = n, nx = n + 3;
    double *vel = malloc(sizeof(double) * ny * nx);
    double *rho = malloc(sizeof(double) * ny * nx);
    double *lhs = calloc((size_t)ny * nx * 5, sizeof(double));
    double *cv = malloc(sizeof(double) * nx);
    double *rhon = malloc(sizeof(double) * nx);
    double *d = calloc((size_t)nx, sizeof(double));
    if (!vel || !rho || !lhs || !cv || !rhon || !d) return 1;
    for (int t = 0; t < ny * nx; t++) {
        vel[t] = (double)((t * 17) % 23) / 23.0 - 0.5;
        rho[t] = (double)((t * 5) % 13) / 13.0 + 0.25;
    }

    build_rows(ny, nx, vel, rho, lhs, cv, rhon, 0.02, 0.01);
    double total = 0.0;
    for (int j = 0; j < ny; j++) {
        derivative(nx, vel + (size_t)j * nx, d, 0.5);
        for (int i = 0; i < nx; i++)                          // expect: Reduction in main
            total += d[i];
    }

    double sum = 0.0;
    for (long t = 0; t < (long)ny * nx * 5; t++)               // expect: Reduction in main
        sum += lhs[t];
    printf("n = %d\n", n);
    printf("sum lhs = %.10g\n", sum);
    printf("sum d = %.10g\n", total);
    printf("lhs row 3 = %.10g %.10g %.10g\n", lhs[(3 * nx + 4) * 5 + 1], lhs[(3 * nx + 4) * 5 + 2],
           lhs[(3 * nx + 4) * 5 + 3]);
    free(vel); free(rho); free(lhs); free(cv); free(rhon); free(d);
    return 0;
}
