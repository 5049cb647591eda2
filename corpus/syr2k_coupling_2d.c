// corpus: SYR2K, strict upper triangle of a symmetric coupling matrix on fixed-size 2D arrays (NP, NCH macros) in a static kernel inlined into main, its row loop running over every row (the diagonal cleared by it, the last row's column loop empty): each pair of particles couples through every channel both ways, emitter i to receiver j and j to i, summed in a local, scaled and mirrored
// args: test=1 bench=5
#include <stdio.h>
#include <stdlib.h>

#define NP 1000
#define NCH 700

static double emit[NP][NCH];
static double recv[NP][NCH];
static double coupling[NP][NP];

/* The symmetric coupling of NP particles, each with an emission and a reception profile
   over NCH channels: particle i's emission heard by j plus j's heard by i, times scale.
   A particle does not couple to itself: the row loop clears the diagonal, and visits the
   last row for that alone. */
static void kernel_coupling(double scale, double E[NP][NP], double P[NP][NCH], double Q[NP][NCH])
{
    for (int i = 0; i < NP; i++) {             // expect: SYR2K in kernel_coupling
        E[i][i] = 0.0;
        for (int j = i + 1; j < NP; j++) {
            double s = 0.0;
            for (int k = 0; k < NCH; k++)
                s += P[i][k] * Q[j][k] + Q[i][k] * P[j][k];
            E[i][j] = scale * s;
            E[j][i] = E[i][j];
        }
    }
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    /* each repetition couples fresh profiles; the diagonal holds garbage before the
       kernel clears it */
    double upper = 0.0, lower = 0.0, diag = 0.0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < NP; i++)
            for (int k = 0; k < NCH; k++) {
                emit[i][k] = (double)((i * 7 + k * 3 + r) % 23) / 23.0 - 0.45;
                recv[i][k] = (double)((i * 5 + k * 11 + 2 * r) % 19) / 19.0 - 0.5;
            }
        for (int i = 0; i < NP; i++)
            coupling[i][i] = 1.0 + (double)(i % 3);

        kernel_coupling(0.25 + 0.125 * (double)(r % 3), coupling, emit, recv);

        /* the strict upper triangle and the mirrored lower one, weighted apart, and the
           diagonal */
        for (int i = 0; i < NP; i++) {
            for (int j = 0; j < NP; j++) {     // expect: Reduction in main
                double in_upper = (double)(j > i), in_lower = (double)(j < i);
                upper += in_upper * coupling[i][j] * (double)(1 + (2 * i + j) % 7);
                lower += in_lower * coupling[i][j] * (double)(1 + (i + 3 * j) % 5);
            }
        }
        for (int i = 0; i < NP; i++)           // expect: Reduction in main
            diag += coupling[i][i] * (double)(1 + (i + r) % 4);
    }

    printf("NP NCH reps = %d %d %d\n", NP, NCH, reps);
    printf("weighted strict upper = %.10g\n", upper);
    printf("weighted strict lower = %.10g\n", lower);
    printf("weighted diagonal = %.10g\n", diag);
    printf("E[0][NP-1] = %.10g  E[NP-1][0] = %.10g  E[NP/2][NP/3] = %.10g\n",
           coupling[0][NP - 1], coupling[NP - 1][0], coupling[NP / 2][NP / 3]);
    return 0;
}
