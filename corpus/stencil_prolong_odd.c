// corpus: Stencil, multigrid prolongation into the odd rows and planes of a finer grid: the pairs 2i, 2i+1 of row 2j+1 (or plane 2k+1) of a grid whose row length is only known at run time, updated from two or four coarse points
// args: test=9 3 bench=129 100
#include <stdio.h>
#include <stdlib.h>

/* Row 2j of the fine grid takes coarse row j, row 2j+1 the mean of rows j and j+1;
   in each, point 2i the coarse point, point 2i+1 the mean of two (nf = 2 nc - 1). */
void prolong_rows(int nc, int nf, double *fine, const double *coarse)
{
    for (int j = 0; j < nc - 1; j++) {
        const double *lo = coarse + (long)j * nc;
        const double *hi = lo + nc;
        for (int i = 0; i < nc - 1; i++) {                     // expect: Stencil in prolong_rows
            fine[2 * j * nf + 2 * i] += lo[i];
            fine[2 * j * nf + 2 * i + 1] += 0.5 * (lo[i] + lo[i + 1]);
        }
        for (int i = 0; i < nc - 1; i++) {                     // expect: Stencil in prolong_rows
            fine[(2 * j + 1) * nf + 2 * i] += 0.5 * (lo[i] + hi[i]);
            fine[(2 * j + 1) * nf + 2 * i + 1] +=
                0.25 * (lo[i] + lo[i + 1] + hi[i] + hi[i + 1]);
        }
    }
}

/* The odd planes of a fine 3D grid, as arrays of variable length: plane 2k+1 from
   coarse planes k and k+1, its even rows (2j) and its odd rows (2j+1), each a nest of
   its own inside the loop over the planes. */
void prolong_odd_planes(int nc, int nf, double u[][nf][nf], double z[][nc][nc])
{
    for (int k = 0; k < nc - 1; k++) {
        for (int j = 0; j < nc; j++)                           // expect: Stencil in prolong_odd_planes
            for (int i = 0; i < nc - 1; i++) {
                double here = z[k][j][i] + z[k + 1][j][i];
                double next = z[k][j][i + 1] + z[k + 1][j][i + 1];
                u[2 * k + 1][2 * j][2 * i] = u[2 * k + 1][2 * j][2 * i] + 0.5 * here;
                u[2 * k + 1][2 * j][2 * i + 1] =
                    u[2 * k + 1][2 * j][2 * i + 1] + 0.25 * (here + next);
            }
        for (int j = 0; j < nc - 1; j++)                       // expect: Stencil in prolong_odd_planes
            for (int i = 0; i < nc - 1; i++) {
                double here = z[k][j][i] + z[k + 1][j][i] + z[k][j + 1][i] + z[k + 1][j + 1][i];
                double next = z[k][j][i + 1] + z[k + 1][j][i + 1] + z[k][j + 1][i + 1]
                    + z[k + 1][j + 1][i + 1];
                u[2 * k + 1][2 * j + 1][2 * i] = u[2 * k + 1][2 * j + 1][2 * i] + 0.25 * here;
                u[2 * k + 1][2 * j + 1][2 * i + 1] =
                    u[2 * k + 1][2 * j + 1][2 * i + 1] + 0.125 * (here + next);
            }
    }
}

/* The odd rows again, from a line of sums of two coarse rows kept in a scratch line. */
void prolong_odd_buffered(int nc, int nf, double *fine, const double *coarse, double *sums)
{
    for (int j = 0; j < nc - 1; j++) {
        for (int i = 0; i < nc; i++)                           // expect: Map in prolong_odd_buffered
            sums[i] = coarse[j * nc + i] + coarse[(j + 1) * nc + i];
        double *row = fine + (long)(2 * j + 1) * nf;
        for (int i = 0; i < nc - 1; i++) {                     // expect: Stencil in prolong_odd_buffered
            row[2 * i] = row[2 * i] + 0.5 * sums[i];
            row[2 * i + 1] = row[2 * i + 1] + 0.25 * (sums[i] + sums[i + 1]);
        }
    }
}

int main(int argc, char **argv)
{
    int nc = argc > 1 ? atoi(argv[1]) : 65;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (nc < 3) nc = 3;
    if (reps < 1) reps = 1;
    int nf = 2 * nc - 1;
    size_t plane = (size_t)nf * nf, cplane = (size_t)nc * nc;
    double *grid = calloc(plane, sizeof(double));
    double *flat = calloc(plane, sizeof(double));
    double *cube = calloc(plane * nf, sizeof(double));
    double *coarse = malloc(sizeof(double) * cplane * nc);
    double *sums = malloc(sizeof(double) * (size_t)nc);
    if (!grid || !flat || !cube || !coarse || !sums) return 1;
    for (size_t t = 0; t < cplane * nc; t++)
        coarse[t] = (double)((t * 7 + 3) % 23) / 23.0 - 0.25;

    for (int r = 0; r < reps; r++) {
        prolong_rows(nc, nf, grid, coarse);
        prolong_odd_planes(nc, nf, (double (*)[nf][nf])cube, (double (*)[nc][nc])coarse);
        prolong_odd_buffered(nc, nf, flat, coarse + cplane, sums);
    }

    double sg = 0.0, sc = 0.0, sf = 0.0;
    for (size_t t = 0; t < plane; t++)                         // expect: Reduction in main
        sg += grid[t] * (double)(t % 7 + 1);
    for (size_t t = 0; t < plane * nf; t++)                    // expect: Reduction in main
        sc += cube[t] * (double)(t % 5 + 1);
    for (size_t t = 0; t < plane; t++)                         // expect: Reduction in main
        sf += flat[t] * (double)(t % 3 + 1);
    printf("nc = %d reps = %d\n", nc, reps);
    printf("grid = %.10g\n", sg);
    printf("cube = %.10g\n", sc);
    printf("flat = %.10g\n", sf);
    printf("grid[3][4] = %.10g cube[1][2][3] = %.10g\n", grid[3 * nf + 4],
           cube[plane + 2 * nf + 3]);
    free(grid); free(flat); free(cube); free(coarse); free(sums);
    return 0;
}
