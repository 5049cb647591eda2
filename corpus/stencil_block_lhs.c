// corpus: Stencil, the block-tridiagonal left-hand side of an implicit CFD sweep along x (NAS BT's x_solve shape): 5x5 Jacobian blocks in file-scope pointers, every one of the 75 entries of the three blocks of a row written out from the Jacobians of the point and of its two neighbours, with the step and the coefficients in file-scope scalars
// args: test=12 2 bench=200000 72
#include <stdio.h>
#include <stdlib.h>

static double (*fjac)[5][5];
static double (*njac)[5][5];
static double (*lhs)[3][5][5];
static double tmp1, tmp2, dt, tx1, tx2, dx1, dx2, dx3, dx4, dx5;

/* The three 5x5 blocks of row i of the system: AA (coupling to i-1), BB (the point
   itself) and CC (coupling to i+1). */
void block_lhs(int n)
{
    int i;
    for (i = 1; i <= n - 1; i++) {   // expect: Stencil in block_lhs
        tmp1 = dt * tx1;
        tmp2 = dt * tx2;

        lhs[i][0][0][0] = -tmp2 * fjac[i - 1][0][0] - tmp1 * njac[i - 1][0][0] - tmp1 * dx1;
        lhs[i][0][0][1] = -tmp2 * fjac[i - 1][0][1] - tmp1 * njac[i - 1][0][1];
        lhs[i][0][0][2] = -tmp2 * fjac[i - 1][0][2] - tmp1 * njac[i - 1][0][2];
        lhs[i][0][0][3] = -tmp2 * fjac[i - 1][0][3] - tmp1 * njac[i - 1][0][3];
        lhs[i][0][0][4] = -tmp2 * fjac[i - 1][0][4] - tmp1 * njac[i - 1][0][4];
        lhs[i][0][1][0] = -tmp2 * fjac[i - 1][1][0] - tmp1 * njac[i - 1][1][0];
        lhs[i][0][1][1] = -tmp2 * fjac[i - 1][1][1] - tmp1 * njac[i - 1][1][1] - tmp1 * dx2;
        lhs[i][0][1][2] = -tmp2 * fjac[i - 1][1][2] - tmp1 * njac[i - 1][1][2];
        lhs[i][0][1][3] = -tmp2 * fjac[i - 1][1][3] - tmp1 * njac[i - 1][1][3];
        lhs[i][0][1][4] = -tmp2 * fjac[i - 1][1][4] - tmp1 * njac[i - 1][1][4];
        lhs[i][0][2][0] = -tmp2 * fjac[i - 1][2][0] - tmp1 * njac[i - 1][2][0];
        lhs[i][0][2][1] = -tmp2 * fjac[i - 1][2][1] - tmp1 * njac[i - 1][2][1];
        lhs[i][0][2][2] = -tmp2 * fjac[i - 1][2][2] - tmp1 * njac[i - 1][2][2] - tmp1 * dx3;
        lhs[i][0][2][3] = -tmp2 * fjac[i - 1][2][3] - tmp1 * njac[i - 1][2][3];
        lhs[i][0][2][4] = -tmp2 * fjac[i - 1][2][4] - tmp1 * njac[i - 1][2][4];
        lhs[i][0][3][0] = -tmp2 * fjac[i - 1][3][0] - tmp1 * njac[i - 1][3][0];
        lhs[i][0][3][1] = -tmp2 * fjac[i - 1][3][1] - tmp1 * njac[i - 1][3][1];
        lhs[i][0][3][2] = -tmp2 * fjac[i - 1][3][2] - tmp1 * njac[i - 1][3][2];
        lhs[i][0][3][3] = -tmp2 * fjac[i - 1][3][3] - tmp1 * njac[i - 1][3][3] - tmp1 * dx4;
        lhs[i][0][3][4] = -tmp2 * fjac[i - 1][3][4] - tmp1 * njac[i - 1][3][4];
        lhs[i][0][4][0] = -tmp2 * fjac[i - 1][4][0] - tmp1 * njac[i - 1][4][0];
        lhs[i][0][4][1] = -tmp2 * fjac[i - 1][4][1] - tmp1 * njac[i - 1][4][1];
        lhs[i][0][4][2] = -tmp2 * fjac[i - 1][4][2] - tmp1 * njac[i - 1][4][2];
        lhs[i][0][4][3] = -tmp2 * fjac[i - 1][4][3] - tmp1 * njac[i - 1][4][3];
        lhs[i][0][4][4] = -tmp2 * fjac[i - 1][4][4] - tmp1 * njac[i - 1][4][4] - tmp1 * dx5;
        lhs[i][1][0][0] = tmp1 * 2.0 * njac[i][0][0] + 1.0 + tmp1 * 2.0 * dx1;
        lhs[i][1][0][1] = tmp1 * 2.0 * njac[i][0][1];
        lhs[i][1][0][2] = tmp1 * 2.0 * njac[i][0][2];
        lhs[i][1][0][3] = tmp1 * 2.0 * njac[i][0][3];
        lhs[i][1][0][4] = tmp1 * 2.0 * njac[i][0][4];
        lhs[i][1][1][0] = tmp1 * 2.0 * njac[i][1][0];
        lhs[i][1][1][1] = tmp1 * 2.0 * njac[i][1][1] + 1.0 + tmp1 * 2.0 * dx2;
        lhs[i][1][1][2] = tmp1 * 2.0 * njac[i][1][2];
        lhs[i][1][1][3] = tmp1 * 2.0 * njac[i][1][3];
        lhs[i][1][1][4] = tmp1 * 2.0 * njac[i][1][4];
        lhs[i][1][2][0] = tmp1 * 2.0 * njac[i][2][0];
        lhs[i][1][2][1] = tmp1 * 2.0 * njac[i][2][1];
        lhs[i][1][2][2] = tmp1 * 2.0 * njac[i][2][2] + 1.0 + tmp1 * 2.0 * dx3;
        lhs[i][1][2][3] = tmp1 * 2.0 * njac[i][2][3];
        lhs[i][1][2][4] = tmp1 * 2.0 * njac[i][2][4];
        lhs[i][1][3][0] = tmp1 * 2.0 * njac[i][3][0];
        lhs[i][1][3][1] = tmp1 * 2.0 * njac[i][3][1];
        lhs[i][1][3][2] = tmp1 * 2.0 * njac[i][3][2];
        lhs[i][1][3][3] = tmp1 * 2.0 * njac[i][3][3] + 1.0 + tmp1 * 2.0 * dx4;
        lhs[i][1][3][4] = tmp1 * 2.0 * njac[i][3][4];
        lhs[i][1][4][0] = tmp1 * 2.0 * njac[i][4][0];
        lhs[i][1][4][1] = tmp1 * 2.0 * njac[i][4][1];
        lhs[i][1][4][2] = tmp1 * 2.0 * njac[i][4][2];
        lhs[i][1][4][3] = tmp1 * 2.0 * njac[i][4][3];
        lhs[i][1][4][4] = tmp1 * 2.0 * njac[i][4][4] + 1.0 + tmp1 * 2.0 * dx5;
        lhs[i][2][0][0] = tmp2 * fjac[i + 1][0][0] - tmp1 * njac[i + 1][0][0] - tmp1 * dx1;
        lhs[i][2][0][1] = tmp2 * fjac[i + 1][0][1] - tmp1 * njac[i + 1][0][1];
        lhs[i][2][0][2] = tmp2 * fjac[i + 1][0][2] - tmp1 * njac[i + 1][0][2];
        lhs[i][2][0][3] = tmp2 * fjac[i + 1][0][3] - tmp1 * njac[i + 1][0][3];
        lhs[i][2][0][4] = tmp2 * fjac[i + 1][0][4] - tmp1 * njac[i + 1][0][4];
        lhs[i][2][1][0] = tmp2 * fjac[i + 1][1][0] - tmp1 * njac[i + 1][1][0];
        lhs[i][2][1][1] = tmp2 * fjac[i + 1][1][1] - tmp1 * njac[i + 1][1][1] - tmp1 * dx2;
        lhs[i][2][1][2] = tmp2 * fjac[i + 1][1][2] - tmp1 * njac[i + 1][1][2];
        lhs[i][2][1][3] = tmp2 * fjac[i + 1][1][3] - tmp1 * njac[i + 1][1][3];
        lhs[i][2][1][4] = tmp2 * fjac[i + 1][1][4] - tmp1 * njac[i + 1][1][4];
        lhs[i][2][2][0] = tmp2 * fjac[i + 1][2][0] - tmp1 * njac[i + 1][2][0];
        lhs[i][2][2][1] = tmp2 * fjac[i + 1][2][1] - tmp1 * njac[i + 1][2][1];
        lhs[i][2][2][2] = tmp2 * fjac[i + 1][2][2] - tmp1 * njac[i + 1][2][2] - tmp1 * dx3;
        lhs[i][2][2][3] = tmp2 * fjac[i + 1][2][3] - tmp1 * njac[i + 1][2][3];
        lhs[i][2][2][4] = tmp2 * fjac[i + 1][2][4] - tmp1 * njac[i + 1][2][4];
        lhs[i][2][3][0] = tmp2 * fjac[i + 1][3][0] - tmp1 * njac[i + 1][3][0];
        lhs[i][2][3][1] = tmp2 * fjac[i + 1][3][1] - tmp1 * njac[i + 1][3][1];
        lhs[i][2][3][2] = tmp2 * fjac[i + 1][3][2] - tmp1 * njac[i + 1][3][2];
        lhs[i][2][3][3] = tmp2 * fjac[i + 1][3][3] - tmp1 * njac[i + 1][3][3] - tmp1 * dx4;
        lhs[i][2][3][4] = tmp2 * fjac[i + 1][3][4] - tmp1 * njac[i + 1][3][4];
        lhs[i][2][4][0] = tmp2 * fjac[i + 1][4][0] - tmp1 * njac[i + 1][4][0];
        lhs[i][2][4][1] = tmp2 * fjac[i + 1][4][1] - tmp1 * njac[i + 1][4][1];
        lhs[i][2][4][2] = tmp2 * fjac[i + 1][4][2] - tmp1 * njac[i + 1][4][2];
        lhs[i][2][4][3] = tmp2 * fjac[i + 1][4][3] - tmp1 * njac[i + 1][4][3];
        lhs[i][2][4][4] = tmp2 * fjac[i + 1][4][4] - tmp1 * njac[i + 1][4][4] - tmp1 * dx5;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int iters = argc > 2 ? atoi(argv[2]) : 3;
    dt = 0.0008;
    if (argc > 3 && sscanf(argv[3], "%lf", &dt) != 1)
        dt = 0.0008;
    if (n < 3)
        n = 3;
    if (iters < 1)
        iters = 1;

    fjac = malloc((size_t)(n + 1) * sizeof *fjac);
    njac = malloc((size_t)(n + 1) * sizeof *njac);
    lhs = calloc((size_t)(n + 1), sizeof *lhs);
    if (!fjac || !njac || !lhs)
        return 1;

    /* coefficients of a fixed mesh spacing of 1/32 */
    tx1 = 32.0 * 32.0;
    tx2 = 32.0 / 2.0;
    dx1 = 0.75;
    dx2 = 0.75;
    dx3 = 0.75;
    dx4 = 0.75;
    dx5 = 0.75;

    /* Jacobians from a small LCG: values in [-1, 1) */
    unsigned seed = 12345u;
    for (int i = 0; i <= n; i++)
        for (int m = 0; m < 5; m++)
            for (int k = 0; k < 5; k++) {
                seed = seed * 1664525u + 1013904223u;
                fjac[i][m][k] = (double)(seed >> 8) / 8388608.0 - 1.0;
                seed = seed * 1664525u + 1013904223u;
                njac[i][m][k] = ((double)(seed >> 8) / 8388608.0 - 1.0) * 1e-4;
            }

    double trace = 0.0;
    for (int it = 0; it < iters; it++) {
        block_lhs(n);
        trace += lhs[n / 2][1][2][2];
    }

    /* checksums of the three blocks over the rows written */
    const double *p = &lhs[0][0][0][0];
    long total = (long)(n + 1) * 75;
    double sum = 0.0, asum = 0.0;
    for (long t = 0; t < total; t++) {   // expect: Reduction in main
        sum += p[t];
        asum += p[t] < 0.0 ? -p[t] : p[t];
    }
    double diag = 0.0;
    for (int i = 1; i <= n - 1; i++)   // expect: Reduction in main
        diag += lhs[i][1][0][0] + lhs[i][1][4][4];

    printf("n = %d iters = %d dt = %.10g\n", n, iters, dt);
    printf("sum lhs = %.10g\n", sum);
    printf("abs sum lhs = %.10g\n", asum);
    printf("diag sum = %.10g\n", diag);
    printf("trace = %.10g\n", trace);
    printf("lhs[1] = %.10g %.10g %.10g\n", lhs[1][0][0][0], lhs[1][1][3][3], lhs[1][2][4][1]);
    free(fjac);
    free(njac);
    free(lhs);
    return 0;
}
