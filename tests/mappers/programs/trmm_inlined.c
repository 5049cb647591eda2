/* A non-unit lower i-k-j TRMM inlined into main where m >= 2 is known: LLVM leaves the
 * row loop at its header's test on the last row for a block of its own (the counter's
 * final value, unused), not the latch's exit (blas.idl's TRMM, TOP=2 at the row loop;
 * mappers/plan/region.py's region_of takes that block as leaving to the exit):
 *
 *   trmm_inlined M N MODE
 *
 * m is at least 2 (M below 2 is taken as 2), n from 1. MODE 0: A and B separate; 1: A is
 * B (read with A's row length); 2: A is B shifted by one element (the guard must decline
 * both). main prints B. */
#include <stdio.h>
#include <stdlib.h>

#define MM 40
#define NN 30

static float A[MM][MM], B[MM][NN];

static void strmm_lower(int m, int n, float (*a)[MM], float (*b)[NN])
{
    for (int i = m - 1; i >= 0; i--) {
        for (int j = 0; j < n; j++)
            b[i][j] = a[i][i] * b[i][j];
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                b[i][j] += a[i][k] * b[k][j];
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 5;
    int n = argc > 2 ? atoi(argv[2]) : 4;
    int mode = argc > 3 ? atoi(argv[3]) : 0;
    if (m < 2) m = 2;
    if (m > MM) m = MM;
    if (n < 1) n = 1;
    if (n > NN) n = NN;
    for (int i = 0; i < MM; i++)
        for (int k = 0; k < MM; k++)
            A[i][k] = (float)((i * 7 + k * 3) % 11) / (float)(4 * MM);
    for (int i = 0; i < MM; i++)
        for (int j = 0; j < NN; j++)
            B[i][j] = 1.0f + (float)((i + 2 * j) % 5) * 0.25f;
    float (*a)[MM] = mode == 1 ? (float (*)[MM])B : mode == 2 ? (float (*)[MM])&B[0][1] : A;
    strmm_lower(m, n, a, B);
    double column = 0.0;
    for (int i = 0; i < MM; i++)
        column += B[i][0];
    printf("column 0: %.6g\n", column);
    for (int i = 0; i < MM; i++)
        for (int j = 0; j < NN; j++)
            printf("[%d][%d] = %.6g\n", i, j, (double)B[i][j]);
    return 0;
}
