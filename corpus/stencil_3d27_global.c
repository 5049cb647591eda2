// corpus: Stencil, 3D 27-point on fixed-size global 3D arrays, weights by neighbour class (centre/face/edge/corner), buffers alternate between calls
// args: test=12 4 bench=128 160
#include <stdio.h>
#include <stdlib.h>

#define NG 128

double g0[NG][NG][NG];
double g1[NG][NG][NG];

/* out = c0*centre + c1*(6 faces) + c2*(12 edges) + c3*(8 corners), interior of an n^3 block. */
void smooth27(int n, double out[NG][NG][NG], double in[NG][NG][NG])
{
    const double c0 = 0.3, c1 = 0.05, c2 = 0.025, c3 = 0.0125;
    for (int i = 1; i < n - 1; i++) {          // expect: Stencil in smooth27
        for (int j = 1; j < n - 1; j++) {
            for (int k = 1; k < n - 1; k++) {
                double faces = in[i - 1][j][k] + in[i + 1][j][k] + in[i][j - 1][k]
                             + in[i][j + 1][k] + in[i][j][k - 1] + in[i][j][k + 1];
                double edges = in[i - 1][j - 1][k] + in[i - 1][j + 1][k]
                             + in[i + 1][j - 1][k] + in[i + 1][j + 1][k]
                             + in[i - 1][j][k - 1] + in[i - 1][j][k + 1]
                             + in[i + 1][j][k - 1] + in[i + 1][j][k + 1]
                             + in[i][j - 1][k - 1] + in[i][j - 1][k + 1]
                             + in[i][j + 1][k - 1] + in[i][j + 1][k + 1];
                double corners = in[i - 1][j - 1][k - 1] + in[i - 1][j - 1][k + 1]
                               + in[i - 1][j + 1][k - 1] + in[i - 1][j + 1][k + 1]
                               + in[i + 1][j - 1][k - 1] + in[i + 1][j - 1][k + 1]
                               + in[i + 1][j + 1][k - 1] + in[i + 1][j + 1][k + 1];
                out[i][j][k] = c0 * in[i][j][k] + c1 * faces + c2 * edges + c3 * corners;
            }
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 48;
    int iters = argc > 2 ? atoi(argv[2]) : 6;
    if (n < 3) n = 3;
    if (n > NG) n = NG;
    if (iters < 2) iters = 2;

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                double x = (double)((i * i + 2 * j + 3 * k) % 13) - 6.0;
                g0[i][j][k] = x;
                g1[i][j][k] = x;
            }

    for (int t = 0; t < iters / 2; t++) {
        smooth27(n, g1, g0);
        smooth27(n, g0, g1);
    }

    double dsum = 0.0, rsum = 0.0;
    for (int k = 0; k < n; k++) {              // expect: Reduction in main
        dsum += g0[k][k][k];
        rsum += g0[n / 2][n / 2][k] + g0[n / 2][k][n / 2] + g0[k][1][n - 2];
    }
    printf("n = %d iters = %d\n", n, iters / 2 * 2);
    printf("diag = %.10g\n", dsum);
    printf("lines = %.10g\n", rsum);
    printf("g0[1][2][3] = %.10g\n", g0[1][2][3]);
    return 0;
}
