// corpus: GEMM, C99 VLA parameters: j-i-k dot-product form, and i-k-j form that clears each output row first, float
// args: test=40 bench=1100
#include <stdio.h>
#include <stdlib.h>

/* C = A * B with C99 variably modified parameters, j outermost. */
void mm_jik(int m, int n, int p, float C[m][n], float A[m][p], float B[p][n])
{
    for (int j = 0; j < n; j++) {              // expect: GEMM in mm_jik
        for (int i = 0; i < m; i++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
    }
}

/* D = A * B again, classic i-k-j form: each row of D is cleared, then rank-1 updates. */
void mm_ikj(int m, int n, int p, float D[m][n], float A[m][p], float B[p][n])
{
    for (int i = 0; i < m; i++) {              // expect: GEMM in mm_ikj
        for (int j = 0; j < n; j++)
            D[i][j] = 0.0f;
        for (int k = 0; k < p; k++) {
            float aik = A[i][k];
            for (int j = 0; j < n; j++)
                D[i][j] += aik * B[k][j];
        }
    }
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
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
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
