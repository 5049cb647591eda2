// corpus: Reduction, verification sweeps that compare a computed field with a manufactured solution evaluated by a helper into a local array at every point: four error norms in memory over a 2D grid, the largest deviation, a quadrature of a function written through its Legendre expansion
// args: test=40 2 bench=1800 16
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NV 4

/* coefficients of the manufactured solution, component v:
   q_v(x, y) = c0 + x (c1 + x (c3 + x c6)) + y (c2 + y (c4 + y c7)) + x y c5 */
double coef[NV][8];
/* Legendre coefficients of the integrand of `quadrature` */
double leg[6];

/* exact: the NV components of the manufactured solution at (x, y), into q */
void exact(double x, double y, double q[NV])
{
    for (int v = 0; v < NV; v++)   // expect: Map in exact
        q[v] = coef[v][0] + x * (coef[v][1] + x * (coef[v][3] + x * coef[v][6])) +
               y * (coef[v][2] + y * (coef[v][4] + y * coef[v][7])) + x * y * coef[v][5];
}

/* legendre: P_0 .. P_5 at x, by their closed forms, into p */
void legendre(double x, double p[6])
{
    double x2 = x * x;
    p[0] = 1.0;
    p[1] = x;
    p[2] = 0.5 * (3.0 * x2 - 1.0);
    p[3] = 0.5 * x * (5.0 * x2 - 3.0);
    p[4] = 0.125 * ((35.0 * x2 - 30.0) * x2 + 3.0);
    p[5] = 0.125 * x * ((63.0 * x2 - 70.0) * x2 + 15.0);
}

/* err[v] = sum over the grid of (u - q_v)^2, the exact values evaluated point by point */
void error_norms(const double *u, int nx, int ny, double err[NV])
{
    double q[NV];
    double hx = 1.0 / (nx - 1), hy = 1.0 / (ny - 1);
    for (int v = 0; v < NV; v++)
        err[v] = 0.0;
    for (int j = 0; j < ny; j++) {                // expect: Reduction in error_norms
        for (int i = 0; i < nx; i++) {
            exact(i * hx, j * hy, q);
            for (int v = 0; v < NV; v++) {
                double d = u[(j * nx + i) * NV + v] - q[v];
                err[v] = err[v] + d * d;
            }
        }
    }
}

/* the largest |u_0 - q_0| along the row y */
double max_deviation(const double *u, int nx, double y)
{
    double q[NV];
    double hx = 1.0 / (nx - 1), worst = 0.0;
    for (int i = 0; i < nx; i++) {                // expect: Reduction in max_deviation
        exact(i * hx, y, q);
        double d = fabs(u[i * NV] - q[0]);
        worst = d > worst ? d : worst;
    }
    return worst;
}

/* midpoint rule over [-1, 1] of f(x) = sum_k leg[k] P_k(x), times the weight w(x) */
double quadrature(const double *w, int n)
{
    double p[6], s = 0.0;
    for (int i = 0; i < n; i++) {                 // expect: Reduction in quadrature
        double x = -1.0 + (2.0 * i + 1.0) / n;
        legendre(x, p);
        double f = leg[0] * p[0] + leg[1] * p[1] + leg[2] * p[2] + leg[3] * p[3] +
                   leg[4] * p[4] + leg[5] * p[5];
        s += w[i] * f;
    }
    return s * 2.0 / n;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;

    for (int v = 0; v < NV; v++)
        for (int c = 0; c < 8; c++)
            coef[v][c] = (double)((v * 5 + c * 3) % 7) / 7.0 - 0.3;
    for (int k = 0; k < 6; k++)
        leg[k] = 1.0 / (k + 1);
    double *u = malloc((size_t)n * n * NV * sizeof *u);
    double *w = malloc((size_t)n * n * sizeof *w);
    if (!u || !w) return 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            for (int v = 0; v < NV; v++)
                u[(j * n + i) * NV + v] = (double)((i * 7 + j * 3 + v) % 13) / 13.0;
    for (int i = 0; i < n * n; i++)
        w[i] = 1.0 + 0.5 * (double)(i % 3);

    double err[NV], worst = 0.0, integral = 0.0;
    for (int r = 0; r < reps; r++) {
        error_norms(u, n, n, err);
        worst += max_deviation(u, n, 0.25 * r);
        integral += quadrature(w, n * n);
    }

    printf("n = %d reps = %d\n", n, reps);
    for (int v = 0; v < NV; v++)
        printf("err[%d] = %.10g\n", v, sqrt(err[v]));
    printf("worst = %.10g integral = %.10g\n", worst, integral);
    free(u);
    free(w);
    return 0;
}
