// corpus: Stencil, lattice-Boltzmann transport of a concentration along a 3D duct (D3Q7, double) on a flat array of cells of 8 doubles (7 distributions and a solid flag) indexed by a cell macro, swept by (z, y, x) loops: collide and push to the 6 neighbours with bounce-back at solid cells, then the inlet and outlet planes rebuilt in place from the planes next to them
// args: test=40 bench=800
// The duct's size is fixed at compile time: the inlet and outlet sweeps write one plane of
// the grid from the next planes of the same grid, which only constant bounds show to be
// apart. The command line gives the number of time steps.
#include <stdio.h>
#include <stdlib.h>

#define NX 48
#define NY 48
#define NZ 64                   /* along the duct; the inlet is plane 1, the outlet NZ */
#define PX (NX + 2)             /* one cell of padding on every side */
#define PY (NY + 2)
#define PZ (NZ + 2)
#define REC 8                   /* f0 rest, f1 +x, f2 -x, f3 +y, f4 -y, f5 +z, f6 -z, solid */
#define SOLID 7
#define CELL(x, y, z) ((((z) * PY + (y)) * PX + (x)) * REC)
#define SX (REC)                /* floats between neighbours along x, y, z */
#define SY (PX * REC)
#define SZ (PX * PY * REC)

/* Drift velocity of the carrier flow and the lattice weights (speed of sound^2 = 1/4). */
#define UX 0.00
#define UY 0.01
#define UZ 0.15
#define WR 0.25
#define WF 0.125

/* One step: each open cell relaxes towards the drifting equilibrium and pushes every
   distribution to the neighbour it moves to; a solid cell returns them where they came
   from. */
void collide_push(const double *src, double *dst, double omega)
{
    for (int z = 1; z <= NZ; z++) {               // expect: Stencil in collide_push
        for (int y = 1; y <= NY; y++) {
            for (int x = 1; x <= NX; x++) {
                int c = CELL(x, y, z);
                if (src[c + SOLID] != 0.0) {
                    dst[c + 0] = src[c + 0];
                    dst[c - SX + 2] = src[c + 1];
                    dst[c + SX + 1] = src[c + 2];
                    dst[c - SY + 4] = src[c + 3];
                    dst[c + SY + 3] = src[c + 4];
                    dst[c - SZ + 6] = src[c + 5];
                    dst[c + SZ + 5] = src[c + 6];
                    continue;
                }
                double f0 = src[c + 0], f1 = src[c + 1], f2 = src[c + 2], f3 = src[c + 3];
                double f4 = src[c + 4], f5 = src[c + 5], f6 = src[c + 6];
                double conc = f0 + f1 + f2 + f3 + f4 + f5 + f6;
                double keep = 1.0 - omega, face = omega * WF * conc;
                dst[c + 0] = keep * f0 + omega * WR * conc;
                dst[c + SX + 1] = keep * f1 + face * (1.0 + 4.0 * UX);
                dst[c - SX + 2] = keep * f2 + face * (1.0 - 4.0 * UX);
                dst[c + SY + 3] = keep * f3 + face * (1.0 + 4.0 * UY);
                dst[c - SY + 4] = keep * f4 + face * (1.0 - 4.0 * UY);
                dst[c + SZ + 5] = keep * f5 + face * (1.0 + 4.0 * UZ);
                dst[c - SZ + 6] = keep * f6 + face * (1.0 - 4.0 * UZ);
            }
        }
    }
}

#define CONC(g, c)                                                                     \
    ((g)[(c) + 0] + (g)[(c) + 1] + (g)[(c) + 2] + (g)[(c) + 3] + (g)[(c) + 4]          \
     + (g)[(c) + 5] + (g)[(c) + 6])
#define SET_EQUILIBRIUM(g, c, conc)                                                    \
    do {                                                                               \
        (g)[(c) + 0] = WR * (conc);                                                    \
        (g)[(c) + 1] = WF * (conc) * (1.0 + 4.0 * UX);                                 \
        (g)[(c) + 2] = WF * (conc) * (1.0 - 4.0 * UX);                                 \
        (g)[(c) + 3] = WF * (conc) * (1.0 + 4.0 * UY);                                 \
        (g)[(c) + 4] = WF * (conc) * (1.0 - 4.0 * UY);                                 \
        (g)[(c) + 5] = WF * (conc) * (1.0 + 4.0 * UZ);                                 \
        (g)[(c) + 6] = WF * (conc) * (1.0 - 4.0 * UZ);                                 \
    } while (0)

/* The inlet plane: half the injected concentration (a bump in the middle of the duct),
   half what the next two planes carry. */
void inlet(double *g)
{
    for (int y = 1; y <= NY; y++) {               // expect: Stencil in inlet
        for (int x = 1; x <= NX; x++) {
            int c = CELL(x, y, 1);
            double dx = (double)(x - NX / 2), dy = (double)(y - NY / 2);
            double injected = 1.0 / (1.0 + 0.02 * (dx * dx + dy * dy));
            double conc = 0.5 * injected + 0.25 * (CONC(g, c + SZ) + CONC(g, c + 2 * SZ));
            SET_EQUILIBRIUM(g, c, conc);
        }
    }
}

/* The outlet plane: the concentration of the two planes before it, weighted 2:1. */
void outlet(double *g)
{
    for (int y = 1; y <= NY; y++) {               // expect: Stencil in outlet
        for (int x = 1; x <= NX; x++) {
            int c = CELL(x, y, NZ);
            double conc = (2.0 * CONC(g, c - SZ) + CONC(g, c - 2 * SZ)) / 3.0;
            SET_EQUILIBRIUM(g, c, conc);
        }
    }
}

/* A faint uneven background concentration (so that every plane, the outlet's too, carries
   something from the first step), solid walls around the duct and a solid baffle across
   part of it. */
void init_duct(double *g)
{
    for (int z = 0; z < PZ; z++) {
        for (int y = 0; y < PY; y++) {
            for (int x = 0; x < PX; x++) {
                int c = CELL(x, y, z);
                SET_EQUILIBRIUM(g, c, 0.01 * (double)((x + 2 * y + 3 * z) % 5));
                int wall = x <= 1 || x >= NX || y <= 1 || y >= NY;
                int baffle = z == NZ / 2 && y < 2 * NY / 3;
                g[c + SOLID] = wall || baffle ? 1.0 : 0.0;
            }
        }
    }
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 20;
    if (steps < 1) steps = 1;
    size_t total = (size_t)PX * PY * PZ * REC;
    double *a = malloc(total * sizeof(double)), *b = malloc(total * sizeof(double));
    if (!a || !b) return 1;
    init_duct(a);
    init_duct(b);

    for (int t = 0; t < steps; t++) {
        collide_push(a, b, 1.25);
        inlet(b);
        outlet(b);
        double *swap = a;
        a = b;
        b = swap;
    }

    double amount = 0.0, outlet_amount = 0.0;
    for (size_t i = 0; i < total; i++)            // expect: Reduction in main
        amount += a[i];
    for (int c = CELL(0, 0, NZ); c < CELL(0, 0, NZ + 1); c += REC)  // expect: Reduction in main
        outlet_amount += CONC(a, c);
    printf("steps = %d\n", steps);
    printf("total (with solid flags) = %.10g\n", amount);
    printf("at the outlet = %.10g\n", outlet_amount);
    printf("centre of plane 4 = %.10g\n", CONC(a, CELL(NX / 2, NY / 2, 4)));
    printf("centre of plane %d = %.10g\n", NZ / 4, CONC(a, CELL(NX / 2, NY / 2, NZ / 4)));
    free(a);
    free(b);
    return 0;
}
