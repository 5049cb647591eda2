// direct: gemm_beta_rows2d.c: kernel_gemm's loop nest (beta scaling and i-k-j updates) as one cblas_dgemm call
// args: test=1 bench=150
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define NI 380
#define NJ 420
#define NK 400

/* C := alpha*A*B + beta*C, the textbook way: scale row i of C, then add alpha*A[i][k]*B[k][:]. */
static void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                        double C[NI][NJ], double A[NI][NK], double B[NK][NJ])
{
    if (ni > 0 && nj > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, nj, nk,
                    alpha, &A[0][0], NK, &B[0][0], NJ, beta, &C[0][0], NJ);
}

static void init_array(int ni, int nj, int nk, double *alpha, double *beta,
                       double C[NI][NJ], double A[NI][NK], double B[NK][NJ])
{
    *alpha = 1.25;
    *beta = 0.5;
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            C[i][j] = (double)((i * j + 1) % ni) / ni;
    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++)
            A[i][k] = (double)(i * (k + 1) % nk) / nk - 0.5;
    for (int k = 0; k < nk; k++)
        for (int j = 0; j < nj; j++)
            B[k][j] = (double)(k * (j + 2) % nj) / nj - 0.25;
}

int main(int argc, char **argv)
{
    /* the sizes are fixed at compile time; the argument repeats the update */
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    if (reps < 1) reps = 1;

    double alpha, beta;
    double (*C)[NJ] = malloc(sizeof(double[NI][NJ]));
    double (*A)[NK] = malloc(sizeof(double[NI][NK]));
    double (*B)[NJ] = malloc(sizeof(double[NK][NJ]));
    if (!A || !B || !C) return 1;

    init_array(NI, NJ, NK, &alpha, &beta, C, A, B);
    for (int r = 0; r < reps; r++)
        kernel_gemm(NI, NJ, NK, alpha, beta, C, A, B);

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++) {
            sum += C[i][j];
            wsum += C[i][j] * (double)((i + j) % 5 + 1);
        }
    }
    printf("ni nj nk reps = %d %d %d %d\n", NI, NJ, NK, reps);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("C[7][11] = %.10g\n", C[7][11]);
    printf("C[NI-1][NJ-1] = %.10g\n", C[NI - 1][NJ - 1]);
    free(A); free(B); free(C);
    return 0;
}
