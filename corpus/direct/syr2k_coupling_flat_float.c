// direct: syr2k_coupling_flat_float.c: coupling_f's strict-triangle nest as a cblas_ssyr2k call over the whole upper triangle (Trans: the profiles stored by channel, beta 0), then the self term on the diagonal and the mirror in a small loop
// args: test=45 31 bench=1000 900
// tolerance: 1e-4 (float32 sums of 1800 products, which OpenBLAS adds in another order)
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* The np x np symmetric coupling (single precision) of np particles from their emission
   (emit) and reception (recv) profiles over nch channels, each profile array holding one
   channel after another (np entries each). A particle's coupling to itself is the fixed
   self term, set on the diagonal by the row loop, which visits the last row for it alone. */
void coupling_f(int np, int nch, float self, const float *emit, const float *recv, float *e)
{
    if (np <= 0)
        return;
    cblas_ssyr2k(CblasRowMajor, CblasUpper, CblasTrans, np, nch,
                 1.0f, emit, np, recv, np, 0.0f, e, np);
    for (int i = 0; i < np; i++) {
        e[i * np + i] = self;
        for (int j = i + 1; j < np; j++)
            e[j * np + i] = e[i * np + j];
    }
}

int main(int argc, char **argv)
{
    int np = argc > 1 ? atoi(argv[1]) : 300;
    int nch = argc > 2 ? atoi(argv[2]) : 200;
    if (np < 2) np = 2;
    if (nch < 1) nch = 1;
    float *emit = malloc(sizeof(float) * (size_t)np * (size_t)nch);
    float *recv = malloc(sizeof(float) * (size_t)np * (size_t)nch);
    float *e = malloc(sizeof(float) * (size_t)np * (size_t)np);
    if (!emit || !recv || !e) return 1;

    /* profiles from a small LCG, centred; the matrix starts as garbage */
    unsigned state = 12345u;
    for (long t = 0; t < (long)np * nch; t++) {
        state = state * 1103515245u + 12345u;
        emit[t] = (float)((state >> 16) % 1000u) / 1000.0f - 0.5f;
        state = state * 1103515245u + 12345u;
        recv[t] = (float)((state >> 16) % 1000u) / 1000.0f - 0.5f;
    }
    for (long t = 0; t < (long)np * np; t++)
        e[t] = (float)(t % 13) - 6.0f;

    coupling_f(np, nch, -1.5f, emit, recv, e);

    /* the strict upper triangle, the mirrored lower one and the diagonal, apart */
    double upper = 0.0, lower = 0.0, diag = 0.0;
    for (int i = 0; i < np; i++) {
        for (int j = 0; j < np; j++) {
            double v = e[i * np + j];
            upper += (j > i) * v * (double)(1 + (2 * i + j) % 7);
            lower += (j < i) * v * (double)(1 + (i + 3 * j) % 5);
            diag += (j == i) * v;
        }
    }
    printf("np nch = %d %d\n", np, nch);
    printf("weighted strict upper = %.6e\n", upper);
    printf("weighted strict lower = %.6e\n", lower);
    printf("diagonal = %.6e\n", diag);
    printf("e[0][np-1] = %.6e  e[np-1][0] = %.6e\n", (double)e[np - 1], (double)e[(np - 1) * np]);
    free(emit); free(recv); free(e);
    return 0;
}
