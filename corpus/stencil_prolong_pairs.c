// corpus: Stencil, multigrid prolongation: a coarse line or grid interpolated into the even and odd points of a finer one, each pair of fine points updated in place from two neighbouring coarse points
// args: test=33 2 bench=2049 200
#include <stdio.h>
#include <stdlib.h>

/* Fine points 2i and 2i+1 of a line: the coarse value, and the mean of two. */
void prolong_line(int nc, double *fine, const double *coarse)
{
    for (int i = 0; i < nc - 1; i++) {                         // expect: Stencil in prolong_line
        fine[2 * i] = fine[2 * i] + coarse[i];
        fine[2 * i + 1] = fine[2 * i + 1] + 0.5 * (coarse[i] + coarse[i + 1]);
    }
}

/* The even rows of a fine grid from the rows of a coarse one (nf = 2 nc - 1 columns). */
void prolong_rows(int nc, int nf, double *fine, const double *coarse)
{
    for (int j = 0; j < nc; j++) {                             // expect: Stencil in prolong_rows
        for (int i = 0; i < nc - 1; i++) {
            fine[2 * j * nf + 2 * i] = fine[2 * j * nf + 2 * i] + coarse[j * nc + i];
            fine[2 * j * nf + 2 * i + 1] = fine[2 * j * nf + 2 * i + 1]
                + 0.5 * (coarse[j * nc + i] + coarse[j * nc + i + 1]);
        }
    }
}

int main(int argc, char **argv)
{
    int nc = argc > 1 ? atoi(argv[1]) : 129;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (nc < 3) nc = 3;
    if (reps < 1) reps = 1;
    int nf = 2 * nc - 1;
    double *line = calloc((size_t)nf, sizeof(double));
    double *grid = calloc((size_t)nf * nf, sizeof(double));
    double *coarse = malloc(sizeof(double) * (size_t)nc * nc);
    if (!line || !grid || !coarse) return 1;
    for (int t = 0; t < nc * nc; t++)
        coarse[t] = (double)((t * 11) % 29) / 29.0;

    for (int r = 0; r < reps; r++) {
        prolong_line(nc, line, coarse);
        prolong_rows(nc, nf, grid, coarse);
    }

    double sl = 0.0, sg = 0.0;
    for (int t = 0; t < nf; t++)                               // expect: Reduction in main
        sl += line[t] * (double)(t % 5 + 1);
    for (long t = 0; t < (long)nf * nf; t++)                   // expect: Reduction in main
        sg += grid[t];
    printf("nc = %d reps = %d\n", nc, reps);
    printf("line = %.10g\n", sl);
    printf("grid = %.10g\n", sg);
    printf("grid[2][3] = %.10g\n", grid[2 * nf + 3]);
    free(line); free(grid); free(coarse);
    return 0;
}
