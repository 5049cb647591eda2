// direct: gemm_chain_memory.c: kernel_2mm's two loop nests as two cblas_dgemm calls
// args: test=40 bench=1050
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define NI 1100
#define NJ 1116
#define NK 1108
#define NL 1124

/* tmp = alpha*A*B, then D = tmp*C + beta*D; the arrays are plain parameters (they may
   alias as far as the compiler can tell), so each sum lives in its output element. */
void kernel_2mm(int ni, int nj, int nk, int nl, double alpha, double beta,
                double tmp[NI][NJ], double A[NI][NK], double B[NK][NJ],
                double C[NJ][NL], double D[NI][NL])
{
    if (ni <= 0)
        return;
    if (nj > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nj, nk,
                    alpha, &A[0][0], NK, &B[0][0], NJ, 0.0, &tmp[0][0], NJ);
    if (nl > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nl, nj,
                    1.0, &tmp[0][0], NJ, &C[0][0], NL, beta, &D[0][0], NL);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    if (n > NI - 8) n = NI - 8;
    int ni = n, nj = n + 5, nk = n + 3, nl = n + 8;

    double (*tmp)[NJ] = malloc(sizeof(double[NI][NJ]));
    double (*A)[NK] = malloc(sizeof(double[NI][NK]));
    double (*B)[NJ] = malloc(sizeof(double[NK][NJ]));
    double (*C)[NL] = malloc(sizeof(double[NJ][NL]));
    double (*D)[NL] = malloc(sizeof(double[NI][NL]));
    if (!tmp || !A || !B || !C || !D) return 1;

    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++)
            A[i][k] = (double)((i * 7 + k * 3) % 17) / 17.0 - 0.45;
    for (int k = 0; k < nk; k++)
        for (int j = 0; j < nj; j++)
            B[k][j] = (double)((k * 2 + j * 5) % 13) / 13.0 - 0.5;
    for (int j = 0; j < nj; j++)
        for (int l = 0; l < nl; l++)
            C[j][l] = (double)((j + l * 9) % 11) / 11.0 - 0.4;
    for (int i = 0; i < ni; i++)
        for (int l = 0; l < nl; l++)
            D[i][l] = (double)((i * 3 + l) % 7) - 3.0;

    kernel_2mm(ni, nj, nk, nl, 0.75, -1.5, tmp, A, B, C, D);

    double ts = 0.0, ds = 0.0, dw = 0.0;
    for (int i = 0; i < ni; i++) {
        for (int j = 0; j < nj; j++)
            ts += tmp[i][j];
        for (int l = 0; l < nl; l++) {
            ds += D[i][l];
            dw += D[i][l] * (double)(1 + (i + 2 * l) % 6);
        }
    }
    printf("ni nj nk nl = %d %d %d %d\n", ni, nj, nk, nl);
    printf("tmp sum = %.10g\n", ts);
    printf("D sum = %.10g\n", ds);
    printf("D weighted = %.10g\n", dw);
    printf("D[1][2] = %.10g\n", D[1][2]);
    free(tmp); free(A); free(B); free(C); free(D);
    return 0;
}
