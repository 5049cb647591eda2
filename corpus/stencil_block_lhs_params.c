// corpus: Stencil, the block-tridiagonal left-hand side of an implicit CFD sweep (NAS BT's x_solve shape) with the Jacobians, the system and the coefficients passed as parameters: row i's three 5x5 blocks, all 75 entries written out, from the Jacobians of points i-1, i and i+1
// args: test=12 2 bench=200000 72
#include <stdio.h>
#include <stdlib.h>

/* Row i of the system: AA couples it to i-1, BB to itself, CC to i+1. */
void block_lhs_rows(int n, double (*fjac)[5][5], double (*njac)[5][5], double (*lhs)[3][5][5],
                    double dt, double tx1, double tx2, const double dxs[5])
{
    for (int i = 1; i <= n - 1; i++) {   // expect: Stencil in block_lhs_rows
        double tmp1 = dt * tx1;
        double tmp2 = dt * tx2;

        lhs[i][0][0][0] = -tmp2 * fjac[i - 1][0][0] - tmp1 * njac[i - 1][0][0] - tmp1 * dxs[0];
        lhs[i][0][0][1] = -tmp2 * fjac[i - 1][0][1] - tmp1 * njac[i - 1][0][1];
        lhs[i][0][0][2] = -tmp2 * fjac[i - 1][0][2] - tmp1 * njac[i - 1][0][2];
        lhs[i][0][0][3] = -tmp2 * fjac[i - 1][0][3] - tmp1 * njac[i - 1][0][3];
        lhs[i][0][0][4] = -tmp2 * fjac[i - 1][0][4] - tmp1 * njac[i - 1][0][4];
        lhs[i][0][1][0] = -tmp2 * fjac[i - 1][1][0] - tmp1 * njac[i - 1][1][0];
        lhs[i][0][1][1] = -tmp2 * fjac[i - 1][1][1] - tmp1 * njac[i - 1][1][1] - tmp1 * dxs[1];
        lhs[i][0][1][2] = -tmp2 * fjac[i - 1][1][2] - tmp1 * njac[i - 1][1][2];
        lhs[i][0][1][3] = -tmp2 * fjac[i - 1][1][3] - tmp1 * njac[i - 1][1][3];
        lhs[i][0][1][4] = -tmp2 * fjac[i - 1][1][4] - tmp1 * njac[i - 1][1][4];
        lhs[i][0][2][0] = -tmp2 * fjac[i - 1][2][0] - tmp1 * njac[i - 1][2][0];
        lhs[i][0][2][1] = -tmp2 * fjac[i - 1][2][1] - tmp1 * njac[i - 1][2][1];
        lhs[i][0][2][2] = -tmp2 * fjac[i - 1][2][2] - tmp1 * njac[i - 1][2][2] - tmp1 * dxs[2];
        lhs[i][0][2][3] = -tmp2 * fjac[i - 1][2][3] - tmp1 * njac[i - 1][2][3];
        lhs[i][0][2][4] = -tmp2 * fjac[i - 1][2][4] - tmp1 * njac[i - 1][2][4];
        lhs[i][0][3][0] = -tmp2 * fjac[i - 1][3][0] - tmp1 * njac[i - 1][3][0];
        lhs[i][0][3][1] = -tmp2 * fjac[i - 1][3][1] - tmp1 * njac[i - 1][3][1];
        lhs[i][0][3][2] = -tmp2 * fjac[i - 1][3][2] - tmp1 * njac[i - 1][3][2];
        lhs[i][0][3][3] = -tmp2 * fjac[i - 1][3][3] - tmp1 * njac[i - 1][3][3] - tmp1 * dxs[3];
        lhs[i][0][3][4] = -tmp2 * fjac[i - 1][3][4] - tmp1 * njac[i - 1][3][4];
        lhs[i][0][4][0] = -tmp2 * fjac[i - 1][4][0] - tmp1 * njac[i - 1][4][0];
        lhs[i][0][4][1] = -tmp2 * fjac[i - 1][4][1] - tmp1 * njac[i - 1][4][1];
        lhs[i][0][4][2] = -tmp2 * fjac[i - 1][4][2] - tmp1 * njac[i - 1][4][2];
        lhs[i][0][4][3] = -tmp2 * fjac[i - 1][4][3] - tmp1 * njac[i - 1][4][3];
        lhs[i][0][4][4] = -tmp2 * fjac[i - 1][4][4] - tmp1 * njac[i - 1][4][4] - tmp1 * dxs[4];
        lhs[i][1][0][0] = tmp1 * 2.0 * njac[i][0][0] + 1.0 + tmp1 * 2.0 * dxs[0];
        lhs[i][1][0][1] = tmp1 * 2.0 * njac[i][0][1];
        lhs[i][1][0][2] = tmp1 * 2.0 * njac[i][0][2];
        lhs[i][1][0][3] = tmp1 * 2.0 * njac[i][0][3];
        lhs[i][1][0][4] = tmp1 * 2.0 * njac[i][0][4];
        lhs[i][1][1][0] = tmp1 * 2.0 * njac[i][1][0];
        lhs[i][1][1][1] = tmp1 * 2.0 * njac[i][1][1] + 1.0 + tmp1 * 2.0 * dxs[1];
        lhs[i][1][1][2] = tmp1 * 2.0 * njac[i][1][2];
        lhs[i][1][1][3] = tmp1 * 2.0 * njac[i][1][3];
        lhs[i][1][1][4] = tmp1 * 2.0 * njac[i][1][4];
        lhs[i][1][2][0] = tmp1 * 2.0 * njac[i][2][0];
        lhs[i][1][2][1] = tmp1 * 2.0 * njac[i][2][1];
        lhs[i][1][2][2] = tmp1 * 2.0 * njac[i][2][2] + 1.0 + tmp1 * 2.0 * dxs[2];
        lhs[i][1][2][3] = tmp1 * 2.0 * njac[i][2][3];
        lhs[i][1][2][4] = tmp1 * 2.0 * njac[i][2][4];
        lhs[i][1][3][0] = tmp1 * 2.0 * njac[i][3][0];
        lhs[i][1][3][1] = tmp1 * 2.0 * njac[i][3][1];
        lhs[i][1][3][2] = tmp1 * 2.0 * njac[i][3][2];
        lhs[i][1][3][3] = tmp1 * 2.0 * njac[i][3][3] + 1.0 + tmp1 * 2.0 * dxs[3];
        lhs[i][1][3][4] = tmp1 * 2.0 * njac[i][3][4];
        lhs[i][1][4][0] = tmp1 * 2.0 * njac[i][4][0];
        lhs[i][1][4][1] = tmp1 * 2.0 * njac[i][4][1];
        lhs[i][1][4][2] = tmp1 * 2.0 * njac[i][4][2];
        lhs[i][1][4][3] = tmp1 * 2.0 * njac[i][4][3];
        lhs[i][1][4][4] = tmp1 * 2.0 * njac[i][4][4] + 1.0 + tmp1 * 2.0 * dxs[4];
        lhs[i][2][0][0] = tmp2 * fjac[i + 1][0][0] - tmp1 * njac[i + 1][0][0] - tmp1 * dxs[0];
        lhs[i][2][0][1] = tmp2 * fjac[i + 1][0][1] - tmp1 * njac[i + 1][0][1];
        lhs[i][2][0][2] = tmp2 * fjac[i + 1][0][2] - tmp1 * njac[i + 1][0][2];
        lhs[i][2][0][3] = tmp2 * fjac[i + 1][0][3] - tmp1 * njac[i + 1][0][3];
        lhs[i][2][0][4] = tmp2 * fjac[i + 1][0][4] - tmp1 * njac[i + 1][0][4];
        lhs[i][2][1][0] = tmp2 * fjac[i + 1][1][0] - tmp1 * njac[i + 1][1][0];
        lhs[i][2][1][1] = tmp2 * fjac[i + 1][1][1] - tmp1 * njac[i + 1][1][1] - tmp1 * dxs[1];
        lhs[i][2][1][2] = tmp2 * fjac[i + 1][1][2] - tmp1 * njac[i + 1][1][2];
        lhs[i][2][1][3] = tmp2 * fjac[i + 1][1][3] - tmp1 * njac[i + 1][1][3];
        lhs[i][2][1][4] = tmp2 * fjac[i + 1][1][4] - tmp1 * njac[i + 1][1][4];
        lhs[i][2][2][0] = tmp2 * fjac[i + 1][2][0] - tmp1 * njac[i + 1][2][0];
        lhs[i][2][2][1] = tmp2 * fjac[i + 1][2][1] - tmp1 * njac[i + 1][2][1];
        lhs[i][2][2][2] = tmp2 * fjac[i + 1][2][2] - tmp1 * njac[i + 1][2][2] - tmp1 * dxs[2];
        lhs[i][2][2][3] = tmp2 * fjac[i + 1][2][3] - tmp1 * njac[i + 1][2][3];
        lhs[i][2][2][4] = tmp2 * fjac[i + 1][2][4] - tmp1 * njac[i + 1][2][4];
        lhs[i][2][3][0] = tmp2 * fjac[i + 1][3][0] - tmp1 * njac[i + 1][3][0];
        lhs[i][2][3][1] = tmp2 * fjac[i + 1][3][1] - tmp1 * njac[i + 1][3][1];
        lhs[i][2][3][2] = tmp2 * fjac[i + 1][3][2] - tmp1 * njac[i + 1][3][2];
        lhs[i][2][3][3] = tmp2 * fjac[i + 1][3][3] - tmp1 * njac[i + 1][3][3] - tmp1 * dxs[3];
        lhs[i][2][3][4] = tmp2 * fjac[i + 1][3][4] - tmp1 * njac[i + 1][3][4];
        lhs[i][2][4][0] = tmp2 * fjac[i + 1][4][0] - tmp1 * njac[i + 1][4][0];
        lhs[i][2][4][1] = tmp2 * fjac[i + 1][4][1] - tmp1 * njac[i + 1][4][1];
        lhs[i][2][4][2] = tmp2 * fjac[i + 1][4][2] - tmp1 * njac[i + 1][4][2];
        lhs[i][2][4][3] = tmp2 * fjac[i + 1][4][3] - tmp1 * njac[i + 1][4][3];
        lhs[i][2][4][4] = tmp2 * fjac[i + 1][4][4] - tmp1 * njac[i + 1][4][4] - tmp1 * dxs[4];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int iters = argc > 2 ? atoi(argv[2]) : 3;
    double dt = argc > 3 ? atof(argv[3]) : 0.0008;
    if (n < 3)
        n = 3;
    if (iters < 1)
        iters = 1;

    double (*fjac)[5][5] = malloc((size_t)(n + 1) * sizeof *fjac);
    double (*njac)[5][5] = malloc((size_t)(n + 1) * sizeof *njac);
    double (*lhs)[3][5][5] = calloc((size_t)(n + 1), sizeof *lhs);
    if (!fjac || !njac || !lhs)
        return 1;

    /* a fixed mesh spacing of 1/32; the artificial dissipation differs per equation */
    double tx1 = 32.0 * 32.0, tx2 = 32.0 / 2.0;
    double dxs[5] = { 0.75, 0.7, 0.65, 0.6, 0.55 };

    /* Jacobians from a small LCG: values in [-1, 1) */
    unsigned seed = 2024u;
    for (int i = 0; i <= n; i++)
        for (int m = 0; m < 5; m++)
            for (int k = 0; k < 5; k++) {
                seed = seed * 1103515245u + 12345u;
                fjac[i][m][k] = (double)(seed >> 9) / 4194304.0 - 1.0;
                seed = seed * 1103515245u + 12345u;
                njac[i][m][k] = ((double)(seed >> 9) / 4194304.0 - 1.0) * 1e-4;
            }

    double trace = 0.0;
    for (int it = 0; it < iters; it++) {
        block_lhs_rows(n, fjac, njac, lhs, dt * (1.0 + 0.01 * it), tx1, tx2, dxs);
        trace += lhs[n / 2][1][2][2];
    }

    /* checksums of the three blocks over the rows written */
    double sum = 0.0;
    for (int i = 0; i <= n; i++) {
        const double *b = &lhs[i][0][0][0];
        for (int e = 0; e < 75; e++)   // expect: Reduction in main
            sum += b[e];
    }
    double off = 0.0;
    for (int i = 1; i <= n - 1; i++)   // expect: Reduction in main
        off += lhs[i][0][1][0] - lhs[i][2][0][1];

    printf("n = %d iters = %d dt = %.10g\n", n, iters, dt);
    printf("sum lhs = %.10g\n", sum);
    printf("off-diagonal sum = %.10g\n", off);
    printf("trace = %.10g\n", trace);
    printf("lhs[1] = %.10g %.10g %.10g\n", lhs[1][0][0][0], lhs[1][1][3][3], lhs[1][2][4][1]);
    free(fjac);
    free(njac);
    free(lhs);
    return 0;
}
