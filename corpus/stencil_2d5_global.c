// corpus: Stencil, 2D 5-point Jacobi sweep for a Poisson problem on fixed-size global 2D arrays, buffers alternate between calls, double
// args: test=40 20 bench=1024 2000
#include <stdio.h>
#include <stdlib.h>

#define NM 1024

double u[NM][NM];
double v[NM][NM];
double f[NM][NM];

/* One Jacobi sweep for -lap(u) = f: out = (N + S + E + W + h2*f) / 4 on the interior. */
void jacobi5(int n, double h2, double out[NM][NM], double in[NM][NM])
{
    for (int i = 1; i < n - 1; i++) {         // expect: Stencil in jacobi5
        for (int j = 1; j < n - 1; j++)
            out[i][j] = 0.25 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]
                                + h2 * f[i][j]);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int iters = argc > 2 ? atoi(argv[2]) : 50;
    if (n < 3) n = 3;
    if (n > NM) n = NM;
    if (iters < 1) iters = 1;
    double h = 1.0 / (double)(n - 1);

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double b = (i == 0) ? 1.0 : 0.0;   /* hot top edge */
            u[i][j] = b;
            v[i][j] = b;
            f[i][j] = (double)((i * 3 + j * 5) % 7) - 3.0;
        }

    for (int t = 0; t < iters; t += 2) {
        jacobi5(n, h * h, v, u);
        jacobi5(n, h * h, u, v);
    }

    double cs = 0.0, rs = 0.0, dg = 0.0;
    for (int k = 0; k < n; k++) {             // expect: Reduction in main
        cs += u[k][n / 2];
        rs += u[n / 3][k];
        dg += u[k][k];
    }
    printf("n = %d iters = %d\n", n, iters);
    printf("midcol = %.10g\n", cs);
    printf("row = %.10g\n", rs);
    printf("diag = %.10g\n", dg);
    printf("u[2][3] = %.10g\n", u[2][3]);
    return 0;
}
