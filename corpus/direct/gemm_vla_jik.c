// direct: gemm_vla_jik.c: mm_jik's and mm_ikj's loop nests as cblas_sgemm calls
// args: test=40 bench=1100
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* C = A * B with C99 variably modified parameters, j outermost. */
void mm_jik(int m, int n, int p, float C[m][n], float A[m][p], float B[p][n])
{
    if (m > 0)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, p,
                    1.0f, &A[0][0], p, &B[0][0], n, 0.0f, &C[0][0], n);
}

/* D = A * B again, classic i-k-j form: each row of D is cleared, then rank-1 updates. */
void mm_ikj(int m, int n, int p, float D[m][n], float A[m][p], float B[p][n])
{
    if (m > 0)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, p,
                    1.0f, &A[0][0], p, &B[0][0], n, 0.0f, &D[0][0], n);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    int m = n, p = n + 5;

    float (*A)[p] = malloc(sizeof(float[m][p]));
    float (*B)[n] = malloc(sizeof(float[p][n]));
    float (*C)[n] = malloc(sizeof(float[m][n]));
    float (*D)[n] = malloc(sizeof(float[m][n]));
    if (!A || !B || !C || !D) return 1;

    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            A[i][k] = (float)((i + 3 * k) % 7) * 0.2f - 0.5f;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            B[k][j] = (float)((2 * k + 5 * j) % 9) * 0.1f - 0.35f;

    mm_jik(m, n, p, C, A, B);
    mm_ikj(m, n, p, D, A, B);

    double tc = 0.0, td = 0.0, rc = 0.0, rd = 0.0;
    for (int i = 0; i < n; i++) {
        tc += C[i][i];
        td += D[i][i];
        rc += C[n - 1][i];
        rd += D[n - 1][i];
    }
    printf("n p = %d %d\n", n, p);
    printf("trace C = %.6e  trace D = %.6e\n", tc, td);
    printf("last row C = %.6e  last row D = %.6e\n", rc, rd);
    free(A); free(B); free(C); free(D);
    return 0;
}
