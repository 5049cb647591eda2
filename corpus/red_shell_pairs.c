// corpus: Reduction over the primitive pairs of shell pairs, as an electron-repulsion code keeps them (Parboil rpes's shape): global tables reached through global pointers, loop bounds read from the shells on every trip, each term a function of the file that calls expf (it writes only errno), the sum of each shell pair kept in a global array; the front end loads the global shell pointer at two levels of the nest, and the innermost loop takes it through a phi of the two. Beside it, the same nest that also rescales the primitives it sums, and one that sets a tag in the shells it weights its terms by (neither a reduction: the loop writes what it reads)
// args: test=12 2 bench=60 3
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int count;   /* primitives of the shell */
    int atom;
    float *alpha; /* exponents of its primitives */
} Shell;

Shell *shells;
float *pair_sums;

float boys0(float x)
{
    return x < 1e-6f ? 1.0f : expf(-x) * sqrtf(1.0f / (x + 1.0f));
}

void pair_integrals(int nshells)
{
    int e = 0;
    for (int s1 = 0; s1 < nshells; s1++)
        for (int s2 = s1; s2 < nshells; s2++) {
            pair_sums[e] = 0.0f;
            for (int p1 = 0; p1 < shells[s1].count; p1++)
                for (int p2 = 0; p2 < shells[s2].count; p2++)   // expect: Reduction in pair_integrals
                    pair_sums[e] += boys0(shells[s1].alpha[p1] * shells[s2].alpha[p2]);
            e++;
        }
}

/* The same sums, but every term also damps the exponent it read: later terms read what
   earlier ones wrote. */
void damped_integrals(int nshells)
{
    int e = 0;
    for (int s1 = 0; s1 < nshells; s1++)
        for (int s2 = s1; s2 < nshells; s2++) {
            pair_sums[e] = 0.0f;
            for (int p1 = 0; p1 < shells[s1].count; p1++)
                for (int p2 = 0; p2 < shells[s2].count; p2++) {   // expect-none: Reduction
                    pair_sums[e] += boys0(shells[s1].alpha[p1] * shells[s2].alpha[p2]);
                    shells[s2].alpha[p2] *= 0.999f;
                }
            e++;
        }
}

/* The sums weighted by a tag kept in the shells, which every term also writes, into the
   shell numbered by its primitive: the table the terms read through is written in the
   loop. */
void counted_integrals(int nshells)
{
    int e = 0;
    for (int s1 = 0; s1 < nshells; s1++)
        for (int s2 = s1; s2 < nshells; s2++) {
            pair_sums[e] = 0.0f;
            for (int p1 = 0; p1 < shells[s1].count; p1++)
                for (int p2 = 0; p2 < shells[s2].count; p2++) {   // expect-none: Reduction
                    pair_sums[e] += (float)shells[s1].atom * boys0(shells[s2].alpha[p2]);
                    shells[p2].atom = p2;
                }
            e++;
        }
}

int main(int argc, char **argv)
{
    int nshells = argc > 1 ? atoi(argv[1]) : 12;
    int reps = argc > 2 ? atoi(argv[2]) : 2;
    if (nshells < 1)
        nshells = 1;
    shells = malloc(sizeof(Shell) * (size_t)nshells);
    pair_sums = malloc(sizeof(float) * (size_t)nshells * (size_t)(nshells + 1) / 2);
    if (!shells || !pair_sums)
        return 1;
    unsigned seed = 5u;
    for (int s = 0; s < nshells; s++) {
        shells[s].count = 1 + s % 6;
        shells[s].atom = s / 3;
        shells[s].alpha = malloc(sizeof(float) * (size_t)shells[s].count);
        if (!shells[s].alpha)
            return 1;
        for (int p = 0; p < shells[s].count; p++) {
            seed = seed * 1664525u + 1013904223u;
            shells[s].alpha[p] = 0.05f + (float)(seed >> 8) / 16777216.0f * 4.0f;
        }
    }
    int pairs = nshells * (nshells + 1) / 2;
    double total = 0.0;
    for (int r = 0; r < reps; r++) {
        pair_integrals(nshells);
        for (int e = 0; e < pairs; e++)   // expect: Reduction in main
            total += pair_sums[e];
    }
    printf("shells = %d pairs = %d\n", nshells, pairs);
    printf("total = %.6e first = %.6e last = %.6e\n", total, (double)pair_sums[0],
           (double)pair_sums[pairs - 1]);
    damped_integrals(nshells);
    printf("damped last = %.6e\n", (double)pair_sums[pairs - 1]);
    counted_integrals(nshells);
    printf("counted last = %.6e\n", (double)pair_sums[pairs - 1]);
    for (int s = 0; s < nshells; s++)
        free(shells[s].alpha);
    free(shells);
    free(pair_sums);
    return 0;
}
