// direct: gemm_chain3_inline.c: main's three loop nests as three cblas_dgemm calls
// args: test=1 bench=45
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

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
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NJ, NK,
                    1.0, &A[0][0], NK, &B[0][0], NJ, 0.0, &E[0][0], NJ);
        /* F := C*D */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NJ, NL, NM,
                    1.0, &C[0][0], NM, &D[0][0], NL, 0.0, &F[0][0], NL);
        /* G := E*F */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, NI, NL, NJ,
                    1.0, &E[0][0], NJ, &F[0][0], NL, 0.0, &G[0][0], NL);
    }

    double es = 0.0, fs = 0.0, gs = 0.0, gw = 0.0;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            es += E[i][j];
    for (i = 0; i < NJ; i++)
        for (j = 0; j < NL; j++)
            fs += F[i][j];
    for (i = 0; i < NI; i++)
        for (j = 0; j < NL; j++) {
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
