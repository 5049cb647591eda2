// corpus: GEMM, three products E = A*B, F = C*D, G = E*F written out in main on static global 2D arrays (sizes from #define), each sum zeroed then accumulated in the output element
// args: test=1 bench=45
#include <stdio.h>
#include <stdlib.h>

#define NI 240
#define NJ 256
#define NK 232
#define NL 248
#define NM 264

static double A[NI][NK], B[NK][NJ], C[NJ][NM], D[NM][NL];
static double E[NI][NJ], F[NJ][NL], G[NI][NL];

int main(int argc, char **argv)
{
    /* the sizes are fixed at compile time; the argument repeats the whole chain */
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;
    int i, j, k;

    for (i = 0; i < NI; i++)
        for (k = 0; k < NK; k++)
            A[i][k] = (double)((i * 3 + k * 7) % 23) / 23.0 - 0.5;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            B[k][j] = (double)((k * 5 + j) % 19) / 19.0 - 0.45;
    for (j = 0; j < NJ; j++)
        for (k = 0; k < NM; k++)
            C[j][k] = (double)((j + k * 4) % 17) / 17.0 - 0.55;
    for (k = 0; k < NM; k++)
        for (j = 0; j < NL; j++)
            D[k][j] = (double)((k * 9 + j * 2) % 29) / 29.0 - 0.5;

    for (int r = 0; r < reps; r++) {
        /* E := A*B */
        for (i = 0; i < NI; i++)               // expect: GEMM in main
            for (j = 0; j < NJ; j++) {
                E[i][j] = 0.0;
                for (k = 0; k < NK; ++k)
                    E[i][j] += A[i][k] * B[k][j];
            }
        /* F := C*D */
        for (i = 0; i < NJ; i++)               // expect: GEMM in main
            for (j = 0; j < NL; j++) {
                F[i][j] = 0.0;
                for (k = 0; k < NM; ++k)
                    F[i][j] += C[i][k] * D[k][j];
            }
        /* G := E*F */
        for (i = 0; i < NI; i++)               // expect: GEMM in main
            for (j = 0; j < NL; j++) {
                G[i][j] = 0.0;
                for (k = 0; k < NJ; ++k)
                    G[i][j] += E[i][k] * F[k][j];
            }
    }

    double es = 0.0, fs = 0.0, gs = 0.0, gw = 0.0;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)               // expect: Reduction in main
            es += E[i][j];
    for (i = 0; i < NJ; i++)
        for (j = 0; j < NL; j++)               // expect: Reduction in main
            fs += F[i][j];
    for (i = 0; i < NI; i++)
        for (j = 0; j < NL; j++) {             // expect: Reduction in main
            gs += G[i][j];
            gw += G[i][j] * (double)((i + 3 * j) % 8 - 4);
        }
    printf("ni nj nk nl nm reps = %d %d %d %d %d %d\n", NI, NJ, NK, NL, NM, reps);
    printf("E sum = %.10g\n", es);
    printf("F sum = %.10g\n", fs);
    printf("G sum = %.10g\n", gs);
    printf("G weighted = %.10g\n", gw);
    printf("G[5][7] = %.10g\n", G[5][7]);
    return 0;
}
