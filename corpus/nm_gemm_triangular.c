// corpus: near-miss GEMM, triangular products: lower-triangular L*B (k bounded by i) and the lower half of A*A^T (j bounded by i)
// args: test=40 bench=1200
// near-miss: inner bounds depend on the outer iterator (k <= i, j <= i), so the nests are triangular, not GEMM; the lower half of A*A^T is a SYRK
#include <stdio.h>
#include <stdlib.h>

/* C = L * B where L is lower triangular (only L[i][0..i] is read). */
void trmm_lower(int n, const double *L, const double *B, double *C)
{
    for (int i = 0; i < n; i++) {             // expect-none: GEMM
        for (int j = 0; j < n; j++) {         // expect: GEMV in trmm_lower
            double s = 0.0;
            for (int k = 0; k <= i; k++)
                s += L[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
    }
}

/* Lower triangle of S = A * A^T (a SYRK-like update, only j <= i is computed). */
void syrk_lower(int n, const double *A, double *S)
{
    for (int i = 0; i < n; i++) {             // expect: SYRK in syrk_lower
        for (int j = 0; j <= i; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * A[j * n + k];
            S[i * n + j] = s;
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 2) n = 2;
    size_t nn = (size_t)n * (size_t)n;
    double *L = malloc(nn * sizeof *L), *B = malloc(nn * sizeof *B);
    double *C = malloc(nn * sizeof *C), *S = malloc(nn * sizeof *S);
    if (!L || !B || !C || !S) return 1;

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            L[i * n + j] = (double)((i * 3 + j * 7) % 10) * 0.1 - 0.4;   /* upper part must be ignored */
            B[i * n + j] = (double)((i + j * 2) % 9) * 0.125 - 0.5;
            S[i * n + j] = 0.0;
        }

    trmm_lower(n, L, B, C);
    syrk_lower(n, B, S);

    double cs = 0.0, ss = 0.0;
    for (size_t t = 0; t < nn; t++) {          // expect: Reduction in main
        cs += C[t] * (double)(1 + t % 4);
        ss += S[t];
    }
    printf("n = %d\n", n);
    printf("trmm checksum = %.10g\n", cs);
    printf("syrk checksum = %.10g\n", ss);
    printf("C[n-1][0] = %.10g  S[n-1][1] = %.10g\n", C[(size_t)(n - 1) * n], S[(size_t)(n - 1) * n + 1]);
    free(L); free(B); free(C); free(S);
    return 0;
}
