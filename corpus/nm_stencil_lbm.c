// corpus: lattice-Boltzmann-like sweeps over a flat array of cells of 6 floats (5 distributions and a flag): two stencils marked in place (pushing into the grid being read, a boundary row rebuilt from itself) and near-misses (two pushes into one slot, a test on a count carried between cells, per-cell moments)
// args: test=3 bench=9000
// near-miss: stream_in_place pushes into the array it reads (the next cell reads what this one pushed) and edge_row rebuilds row 0 from row 1 and from its own east neighbour, which the sweep has already rewritten: stencils in place, never replaced; spread pushes two values into the same slot of different cells, so one iteration overwrites another's; capped_push decides on a count carried from cell to cell; moments reads only the fields of the cell it writes (records are not neighbours)
// The grid size is fixed at compile time (as in stencil_lbm_channel.c), so that the
// counters' ranges are known: the reads that do overlap the writes are not excused by a
// bound the analysis cannot see.
#include <stdio.h>
#include <stdlib.h>

#define NX 120
#define NY 90
#define REC 6                   /* f0 rest, f1 east, f2 north, f3 west, f4 south, flag */
#define FLAG 5
#define ROW (NX * REC)
#define CELLS (NX * NY)
#define MARGIN (2 * ROW)
#define E (REC)
#define N (ROW)

/* Relax towards the mean and push, but into the same grid: cell c + E reads slot 1 after
   cell c wrote it. */
void stream_in_place(float *g, float omega)
{
    for (int c = 0; c < CELLS * REC; c += REC) {  // expect: Stencil in stream_in_place (in place)
        float rho = g[c] + g[c + 1] + g[c + 2] + g[c + 3] + g[c + 4];
        float eq = 0.2f * rho, keep = 1.0f - omega;
        g[c + 0] = keep * g[c + 0] + omega * eq;
        g[c + E + 1] = keep * g[c + 1] + omega * eq;
        g[c + N + 2] = keep * g[c + 2] + omega * eq;
        g[c - E + 3] = keep * g[c + 3] + omega * eq;
        g[c - N + 4] = keep * g[c + 4] + omega * eq;
    }
}

/* Row 0 from row 1 and from the cell east of it in row 0, which this sweep has just
   rewritten: a recurrence along the row, not a stencil. */
void edge_row(float *g)
{
    for (int c = 0; c < ROW - REC; c += REC) {    // expect: Stencil in edge_row (in place)
        float up = g[c + N] + g[c + N + 1] + g[c + N + 2] + g[c + N + 3] + g[c + N + 4];
        float side = g[c + E] + g[c + E + 1] + g[c + E + 2] + g[c + E + 3] + g[c + E + 4];
        float rho = 0.5f * (up + side);
        g[c + 0] = 0.2f * rho;
        g[c + 1] = 0.2f * rho;
        g[c + 2] = 0.25f * rho;
        g[c + 3] = 0.2f * rho;
        g[c + 4] = 0.15f * rho;
    }
}

/* Each cell pushes its east-moving value both east and west, into slot 1 of each: the
   west neighbour's slot 1 is written again by that neighbour's own east push. */
void spread(const float *src, float *dst)
{
    for (int c = 0; c < CELLS * REC; c += REC) {  // expect-none: Stencil
        dst[c + 0] = src[c + 0];
        dst[c + E + 1] = 0.75f * src[c + 1];
        dst[c - E + 1] = 0.25f * src[c + 1];
        dst[c + N + 2] = src[c + 2];
        dst[c - E + 3] = src[c + 3];
        dst[c - N + 4] = src[c + 4];
    }
}

/* Pushes the cells' values to the neighbours, marked cells sending them back the way
   they came, but only the first `cap` marked cells: the test depends on a count carried
   over from earlier cells. */
void capped_push(const float *src, float *dst, int cap)
{
    int marked = 0;
    for (int c = 0; c < CELLS * REC; c += REC) {  // expect-none: Stencil
        if (marked < cap && src[c + FLAG] > 0.5f) {
            dst[c + 0] = src[c + 0];
            dst[c - E + 3] = src[c + 1];
            dst[c - N + 4] = src[c + 2];
            dst[c + E + 1] = src[c + 3];
            dst[c + N + 2] = src[c + 4];
            marked++;
        } else {
            dst[c + 0] = src[c + 0];
            dst[c + E + 1] = src[c + 1];
            dst[c + N + 2] = src[c + 2];
            dst[c - E + 3] = src[c + 3];
            dst[c - N + 4] = src[c + 4];
        }
    }
}

/* Density and velocity of every cell, into a flat array of records of 3: the fields of
   one cell, written into the fields of one record. */
void moments(const float *g, float *macro)
{
    for (int y = 0; y < NY; y++) {                // expect-none: Stencil; expect: Map in moments
        for (int x = 0; x < NX; x++) {
            int cell = y * NX + x;
            const float *p = g + cell * REC;
            float rho = p[0] + p[1] + p[2] + p[3] + p[4];
            macro[cell * 3 + 0] = rho;
            macro[cell * 3 + 1] = (p[1] - p[3]) / rho;
            macro[cell * 3 + 2] = (p[2] - p[4]) / rho;
        }
    }
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 10;
    if (steps < 1) steps = 1;
    size_t total = (size_t)CELLS * REC + 2 * MARGIN;
    float *ma = calloc(total, sizeof(float)), *mb = calloc(total, sizeof(float));
    float *macro = malloc((size_t)CELLS * 3 * sizeof(float));
    if (!ma || !mb || !macro) return 1;
    float *a = ma + MARGIN, *b = mb + MARGIN;
    for (int c = 0; c < CELLS; c++) {
        for (int k = 0; k < 5; k++)
            a[c * REC + k] = 0.2f + 0.01f * (float)((c * 7 + k * 3) % 11);
        a[c * REC + FLAG] = (float)((c * 13) % 5 == 0);
    }

    for (int t = 0; t < steps; t++) {
        stream_in_place(a, 1.2f);
        edge_row(a);
        spread(a, b);
        capped_push(b, a, CELLS / 8);
    }
    moments(a, macro);

    double mass = 0.0, along = 0.0;
    for (int i = 0; i < CELLS * REC; i++)         // expect: Reduction in main
        mass += (double)a[i];
    for (int c = 0; c < CELLS; c++)               // expect: Reduction in main
        along += (double)macro[c * 3 + 2];
    printf("steps = %d\n", steps);
    printf("mass (with flags) = %.6e\n", mass);
    printf("sum of the velocities along y = %.6e\n", along);
    printf("cell 100 rho = %.6e\n", (double)macro[300]);
    free(ma);
    free(mb);
    free(macro);
    return 0;
}
