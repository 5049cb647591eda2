// corpus: near-miss Reduction, the statistics pass of a D2Q5 lattice-Boltzmann grid (Parboil lbm's shape, in two dimensions) that also rescales each cell's rest distribution in place: cells of 6 floats (5 distributions and a flag word in the 6th float's bits), the mass, density and velocity extremes and the flag counts of one sweep
// near-miss: the sweep stores the rescaled density into slot C of the cell array it sums, between the reads of the distributions, so the values summed, and the flags that decide the counts, are read from an array the loop writes
// args: test=6 2 bench=110 150
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NDIST 5
#define CELL 6
#define FLAG_SLOT 5
#define OBSTACLE 1u
#define ACCEL 2u

/* the slots of the 5 directions */
enum { C, N, S, E, W };

struct grid_stats {
    float minRho, maxRho, minU2, maxU2;
    double mass;
    int nObstacle, nAccel, nFluid;
};

void cell_statistics_rescale(int nCells, float *cells, float scale, struct grid_stats *st)
{
    float minRho = 1e30f, maxRho = -1e30f, minU2 = 1e30f, maxU2 = -1e30f;
    double mass = 0.0;
    int nObstacle = 0, nAccel = 0, nFluid = 0;

    for (int c = 0; c < nCells; c++) {   // expect-none: Reduction
        float *f = cells + (size_t)CELL * c;
        float rho = f[C] + f[N] + f[S] + f[E] + f[W];
        /* the rest population rescaled in place, then the density read back from the cell */
        f[C] = rho * scale;
        rho = f[C] + f[N] + f[S] + f[E] + f[W];
        if (rho < minRho)
            minRho = rho;
        if (rho > maxRho)
            maxRho = rho;
        mass += rho;

        unsigned flag;
        memcpy(&flag, &f[FLAG_SLOT], sizeof flag);
        if (flag & OBSTACLE) {
            nObstacle++;
        } else {
            if (flag & ACCEL)
                nAccel++;
            else
                nFluid++;
            float ux = f[E] - f[W];
            float uy = f[N] - f[S];
            float u2 = ux * ux + uy * uy;
            if (u2 < minU2)
                minU2 = u2;
            if (u2 > maxU2)
                maxU2 = u2;
        }
    }

    st->minRho = minRho;
    st->maxRho = maxRho;
    st->minU2 = minU2;
    st->maxU2 = maxU2;
    st->mass = mass;
    st->nObstacle = nObstacle;
    st->nAccel = nAccel;
    st->nFluid = nFluid;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 32;
    int iters = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;
    int nx = n, ny = n, nz = n + 20;
    int nCells = nx * ny * nz;

    float *cells = malloc((size_t)nCells * CELL * sizeof *cells);
    if (!cells)
        return 1;

    /* equilibrium weights, perturbed by a small LCG; obstacles on the box's walls and in a
       sphere, the first two planes accelerated */
    static const float w[NDIST] = { 1.f / 3, 1.f / 6, 1.f / 6, 1.f / 6, 1.f / 6 };
    unsigned seed = 7u;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                float *f = cells + (size_t)CELL * ((z * ny + y) * nx + x);
                for (int d = 0; d < NDIST; d++) {
                    seed = seed * 1664525u + 1013904223u;
                    f[d] = w[d] * (1.0f + ((float)(seed >> 16) / 65536.0f - 0.5f) * 0.1f);
                }
                int dx = x - nx / 2, dy = y - ny / 2, dz = z - nz / 2;
                unsigned flag = 0;
                if (x == 0 || x == nx - 1 || y == 0 || y == ny - 1 || dx * dx + dy * dy + dz * dz < n * n / 16)
                    flag |= OBSTACLE;
                if (z < 2)
                    flag |= ACCEL;
                memcpy(&f[FLAG_SLOT], &flag, sizeof flag);
            }

    struct grid_stats st;
    for (int it = 0; it < iters; it++)
        cell_statistics_rescale(nCells, cells, 0.25f, &st);

    printf("cells = %d iters = %d\n", nCells, iters);
    printf("rho min = %.10g max = %.10g\n", (double)st.minRho, (double)st.maxRho);
    printf("mass = %.10g\n", st.mass);
    printf("u2 min = %.10g max = %.10g\n", (double)st.minU2, (double)st.maxU2);
    printf("obstacle = %d accel = %d fluid = %d\n", st.nObstacle, st.nAccel, st.nFluid);
    free(cells);
    return 0;
}
