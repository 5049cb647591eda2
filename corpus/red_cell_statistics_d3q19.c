// corpus: Reduction, the statistics pass of a D3Q19 lattice-Boltzmann grid (Parboil lbm's shape): cells of 20 floats (19 distributions and a flag word kept as the bit pattern of the 20th), one sweep reading 21 values a cell, summing each cell's density into the mass and its extremes, counting cells by flag, and keeping the extremes of the squared velocity of the cells that are not obstacles; beside it, the same sweep that also rescales the cell it reads (not a reduction: the loop writes what it sums)
// args: test=6 2 bench=48 40
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NDIST 19
#define CELL 20
#define FLAG_SLOT 19
#define OBSTACLE 1u
#define ACCEL 2u

/* the slots of the 19 directions, in lbm's order */
enum { C, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB, ET, EB, WT, WB };

struct grid_stats {
    float minRho, maxRho, minU2, maxU2;
    double mass;
    int nObstacle, nAccel, nFluid;
};

static unsigned flag_of(const float *f)
{
    unsigned flag;
    memcpy(&flag, &f[FLAG_SLOT], sizeof flag);
    return flag;
}

void cell_statistics(int nCells, const float *cells, struct grid_stats *st)
{
    float minRho = 1e30f, maxRho = -1e30f, minU2 = 1e30f, maxU2 = -1e30f;
    double mass = 0.0;
    int nObstacle = 0, nAccel = 0, nFluid = 0;

    for (int c = 0; c < nCells; c++) {   // expect: Reduction in cell_statistics
        const float *f = cells + (size_t)CELL * c;
        float rho = f[C] + f[N] + f[S] + f[E] + f[W] + f[T] + f[B] + f[NE] + f[NW] + f[SE] +
                    f[SW] + f[NT] + f[NB] + f[ST] + f[SB] + f[ET] + f[EB] + f[WT] + f[WB];
        if (rho < minRho)
            minRho = rho;
        if (rho > maxRho)
            maxRho = rho;
        mass += rho;

        if (flag_of(f) & OBSTACLE) {
            nObstacle++;
        } else {
            if (flag_of(f) & ACCEL)
                nAccel++;
            else
                nFluid++;
            float ux = f[E] - f[W] + f[NE] - f[NW] + f[SE] - f[SW] + f[ET] + f[EB] - f[WT] - f[WB];
            float uy = f[N] - f[S] + f[NE] + f[NW] - f[SE] - f[SW] + f[NT] + f[NB] - f[ST] - f[SB];
            float uz = f[T] - f[B] + f[NT] - f[NB] + f[ST] - f[SB] + f[ET] - f[EB] + f[WT] - f[WB];
            float u2 = (ux * ux + uy * uy + uz * uz) / (rho * rho);
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

/* The same sums, but each cell is rescaled to unit density as it is read: a later cell
   never reads an earlier one, yet the loop writes the array its sums read. */
double normalise_cells(int nCells, float *cells)
{
    double mass = 0.0;
    for (int c = 0; c < nCells; c++) {   // expect-none: Reduction
        float *f = cells + (size_t)CELL * c;
        float rho = f[C] + f[N] + f[S] + f[E] + f[W] + f[T] + f[B] + f[NE] + f[NW] + f[SE] +
                    f[SW] + f[NT] + f[NB] + f[ST] + f[SB] + f[ET] + f[EB] + f[WT] + f[WB];
        mass += rho;
        for (int d = 0; d < NDIST; d++)   // expect: Map in normalise_cells
            f[d] /= rho;
    }
    return mass;
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
    static const float w[NDIST] = { 1.f / 3,  1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18,
                                    1.f / 18, 1.f / 18, 1.f / 36, 1.f / 36, 1.f / 36,
                                    1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36,
                                    1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36 };
    unsigned seed = 11u;
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
        cell_statistics(nCells, cells, &st);

    printf("cells = %d iters = %d\n", nCells, iters);
    printf("rho min = %.10g max = %.10g\n", (double)st.minRho, (double)st.maxRho);
    printf("mass = %.10g\n", st.mass);
    printf("u2 min = %.10g max = %.10g\n", (double)st.minU2, (double)st.maxU2);
    printf("obstacle = %d accel = %d fluid = %d\n", st.nObstacle, st.nAccel, st.nFluid);
    printf("normalised mass = %.10g\n", normalise_cells(nCells, cells));
    free(cells);
    return 0;
}
