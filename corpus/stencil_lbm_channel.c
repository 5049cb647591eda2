// corpus: Stencil, lattice-Boltzmann channel flow (D2Q9, float) on a flat array of cells of 10 floats (9 distributions and a flag), swept as one flat loop: collide and push the 9 distributions to the neighbours under a wall test, then rebuild the inflow and outflow rows in place from the rows next to them
// args: test=3 bench=2500
// The grid size is fixed at compile time, as lattice-Boltzmann codes of this style fix it:
// the in/out-flow sweeps write one row of the grid from the next rows of the same grid,
// and only constant bounds show that they never read what they write. The command line
// gives the number of time steps.
#include <stdio.h>
#include <stdlib.h>

#define NX 200                  /* cells across the channel */
#define NY 160                  /* cells along it; the flow goes up, from row 0 */
#define REC 10                  /* floats per cell: f0 .. f8, then the flag */
#define FLAG 9
#define ROW (NX * REC)          /* floats per row of cells */
#define CELLS (NX * NY)
#define MARGIN (2 * ROW)        /* a spare row above and below: pushes from the edge rows */

#define WALL 1.0f
#define LID 2.0f                /* cells whose velocity is imposed */

#define W0 (4.0f / 9.0f)
#define W1 (1.0f / 9.0f)
#define W2 (1.0f / 36.0f)

/* Directions: 0 rest, 1 east, 2 north, 3 west, 4 south, 5 north-east, 6 north-west,
   7 south-west, 8 south-east. A distribution moving in direction k lands in the
   neighbouring cell that way, in its own slot k. */
#define E (REC)
#define N (ROW)

/* One time step: relax each fluid cell towards equilibrium and push its distributions to
   the neighbours; a wall cell sends each one back the way it came. */
void collide_push(const float *src, float *dst, float omega)
{
    for (int c = 0; c < CELLS * REC; c += REC) {  // expect: Stencil in collide_push
        if (src[c + FLAG] == WALL) {
            dst[c + 0] = src[c + 0];
            dst[c - E + 3] = src[c + 1];
            dst[c - N + 4] = src[c + 2];
            dst[c + E + 1] = src[c + 3];
            dst[c + N + 2] = src[c + 4];
            dst[c - N - E + 7] = src[c + 5];
            dst[c - N + E + 8] = src[c + 6];
            dst[c + N + E + 5] = src[c + 7];
            dst[c + N - E + 6] = src[c + 8];
            continue;
        }
        float f0 = src[c + 0], f1 = src[c + 1], f2 = src[c + 2];
        float f3 = src[c + 3], f4 = src[c + 4], f5 = src[c + 5];
        float f6 = src[c + 6], f7 = src[c + 7], f8 = src[c + 8];
        float rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8;
        float ux = (f1 - f3 + f5 - f6 - f7 + f8) / rho;
        float uy = (f2 - f4 + f5 + f6 - f7 - f8) / rho;
        if (src[c + FLAG] == LID) {
            ux = 0.02f;
            uy = 0.0f;
        }
        float sq = 1.5f * (ux * ux + uy * uy);
        float keep = 1.0f - omega;
        float r0 = omega * W0 * rho, r1 = omega * W1 * rho, r2 = omega * W2 * rho;
        dst[c + 0] = keep * f0 + r0 * (1.0f - sq);
        dst[c + E + 1] = keep * f1 + r1 * (1.0f + 3.0f * ux + 4.5f * ux * ux - sq);
        dst[c + N + 2] = keep * f2 + r1 * (1.0f + 3.0f * uy + 4.5f * uy * uy - sq);
        dst[c - E + 3] = keep * f3 + r1 * (1.0f - 3.0f * ux + 4.5f * ux * ux - sq);
        dst[c - N + 4] = keep * f4 + r1 * (1.0f - 3.0f * uy + 4.5f * uy * uy - sq);
        float a = ux + uy, b = uy - ux;
        dst[c + N + E + 5] = keep * f5 + r2 * (1.0f + 3.0f * a + 4.5f * a * a - sq);
        dst[c + N - E + 6] = keep * f6 + r2 * (1.0f + 3.0f * b + 4.5f * b * b - sq);
        dst[c - N - E + 7] = keep * f7 + r2 * (1.0f - 3.0f * a + 4.5f * a * a - sq);
        dst[c - N + E + 8] = keep * f8 + r2 * (1.0f - 3.0f * b + 4.5f * b * b - sq);
    }
}

/* The equilibrium of one cell written into its own 9 slots. */
#define SET_EQUILIBRIUM(g, c, rho, ux, uy)                                             \
    do {                                                                               \
        float sq_ = 1.5f * ((ux) * (ux) + (uy) * (uy));                                \
        float a_ = (ux) + (uy), b_ = (uy) - (ux);                                      \
        (g)[(c) + 0] = W0 * (rho) * (1.0f - sq_);                                      \
        (g)[(c) + 1] = W1 * (rho) * (1.0f + 3.0f * (ux) + 4.5f * (ux) * (ux) - sq_);   \
        (g)[(c) + 2] = W1 * (rho) * (1.0f + 3.0f * (uy) + 4.5f * (uy) * (uy) - sq_);   \
        (g)[(c) + 3] = W1 * (rho) * (1.0f - 3.0f * (ux) + 4.5f * (ux) * (ux) - sq_);   \
        (g)[(c) + 4] = W1 * (rho) * (1.0f - 3.0f * (uy) + 4.5f * (uy) * (uy) - sq_);   \
        (g)[(c) + 5] = W2 * (rho) * (1.0f + 3.0f * a_ + 4.5f * a_ * a_ - sq_);         \
        (g)[(c) + 6] = W2 * (rho) * (1.0f + 3.0f * b_ + 4.5f * b_ * b_ - sq_);         \
        (g)[(c) + 7] = W2 * (rho) * (1.0f - 3.0f * a_ + 4.5f * a_ * a_ - sq_);         \
        (g)[(c) + 8] = W2 * (rho) * (1.0f - 3.0f * b_ + 4.5f * b_ * b_ - sq_);         \
    } while (0)

#define DENSITY(g, c)                                                                  \
    ((g)[(c) + 0] + (g)[(c) + 1] + (g)[(c) + 2] + (g)[(c) + 3] + (g)[(c) + 4]          \
     + (g)[(c) + 5] + (g)[(c) + 6] + (g)[(c) + 7] + (g)[(c) + 8])

/* Row 0 takes a parabolic inflow profile, its density extrapolated from rows 1 and 2. */
void inflow(float *g)
{
    for (int c = 0; c < ROW; c += REC) {          // expect: Stencil in inflow
        float rho = 2.0f * DENSITY(g, c + N) - DENSITY(g, c + 2 * N);
        float s = (float)c * (1.0f / (float)(ROW - REC));
        float uy = 0.04f * s * (1.0f - s);
        SET_EQUILIBRIUM(g, c, rho, 0.0f, uy);
    }
}

/* The last row lets the flow out: unit density, the velocity of the two rows below it
   (three parts of the nearer, one of the farther). */
void outflow(float *g)
{
    for (int c = (NY - 1) * ROW; c < NY * ROW; c += REC) {  // expect: Stencil in outflow
        const float *p = g + c - N, *q = g + c - 2 * N;
        float rp = DENSITY(p, 0), rq = DENSITY(q, 0);
        float uxp = (p[1] - p[3] + p[5] - p[6] - p[7] + p[8]) / rp;
        float uyp = (p[2] - p[4] + p[5] + p[6] - p[7] - p[8]) / rp;
        float uxq = (q[1] - q[3] + q[5] - q[6] - q[7] + q[8]) / rq;
        float uyq = (q[2] - q[4] + q[5] + q[6] - q[7] - q[8]) / rq;
        SET_EQUILIBRIUM(g, c, 1.0f, 0.75f * uxp + 0.25f * uxq, 0.75f * uyp + 0.25f * uyq);
    }
}

/* Every cell at rest, at unit density; the side walls, a square block in the channel and
   a strip of driven cells behind it. */
void init_cells(float *g)
{
    for (int y = 0; y < NY; y++) {
        for (int x = 0; x < NX; x++) {
            int c = (y * NX + x) * REC;
            SET_EQUILIBRIUM(g, c, 1.0f, 0.0f, 0.0f);
            float flag = 0.0f;
            if (x == 0 || x == NX - 1)
                flag = WALL;
            else if (y >= NY / 3 && y < NY / 3 + 12 && x >= NX / 2 - 8 && x < NX / 2 + 8)
                flag = WALL;
            else if (y == NY / 3 + 12 && x > NX / 2 - 8 && x < NX / 2 + 7)
                flag = LID;
            g[c + FLAG] = flag;
        }
    }
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 50;
    if (steps < 1) steps = 1;
    size_t total = (size_t)CELLS * REC + 2 * MARGIN;
    float *ma = calloc(total, sizeof(float));
    float *mb = calloc(total, sizeof(float));
    if (!ma || !mb) return 1;
    float *a = ma + MARGIN, *b = mb + MARGIN;
    init_cells(a);
    init_cells(b);
    float omega = 1.6f;

    for (int t = 0; t < steps; t++) {
        collide_push(a, b, omega);
        inflow(b);
        outflow(b);
        float *swap = a;
        a = b;
        b = swap;
    }

    double mass = 0.0;
    for (int i = 0; i < CELLS * REC; i++)         // expect: Reduction in main
        mass += (double)a[i];
    double flow = 0.0;
    for (int c = 0; c < CELLS * REC; c += REC)    // expect: Reduction in main
        flow += (double)(a[c + 2] - a[c + 4] + a[c + 5] + a[c + 6] - a[c + 7] - a[c + 8]);
    printf("steps = %d\n", steps);
    printf("mass (with flags) = %.6e\n", mass);
    printf("momentum along the channel = %.6e\n", flow);
    printf("cell (%d, %d) f2 = %.6e\n", NX / 2, NY - 2,
           (double)a[((NY - 2) * NX + NX / 2) * REC + 2]);
    free(ma);
    free(mb);
    return 0;
}
