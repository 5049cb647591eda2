// corpus: near-miss SYRK, two triangular dot-product nests that look like A*A^T updates: the strictly lower triangle (diagonal left out), and a triangle of A*B^T with two different factors
// args: test=40 30 bench=1500 1300
// near-miss: syrk_strict leaves out the diagonal (j < i), so it is no SYRK of C (it computes the lower triangle of A[1..n-1] * A[0..n-2]^T, two different factors); tri_abt's factors A and B differ, so its product is not symmetric: neither is a SYRK
#include <stdio.h>
#include <stdlib.h>

/* C[i][j] = alpha * a_i . a_j + beta * C[i][j] for j < i only: the diagonal keeps its value. */
void syrk_strict(int n, int m, double alpha, const double *A, double beta, double *C)
{
    /* not a SYRK: the diagonal is not updated; for one i, the (j, k) nest is a GEMV */
    for (int i = 0; i < n; i++) {              // expect-none: SYRK
        for (int j = 0; j < i; j++) {          // expect: GEMV in syrk_strict
            double s = 0.0;
            for (int k = 0; k < m; k++)
                s += A[i * m + k] * A[j * m + k];
            C[i * n + j] = alpha * s + beta * C[i * n + j];
        }
    }
}

/* The lower triangle of D = alpha * A * B^T + beta * D: A * B^T is not symmetric. */
void tri_abt(int n, int m, double alpha, const double *A, const double *B, double beta, double *D)
{
    /* not a SYRK: the factors are two arrays; for one i, the (j, k) nest is a GEMV */
    for (int i = 0; i < n; i++) {              // expect-none: SYRK
        for (int j = 0; j <= i; j++) {         // expect: GEMV in tri_abt
            double s = 0.0;
            for (int k = 0; k < m; k++)
                s += A[i * m + k] * B[j * m + k];
            D[i * n + j] = alpha * s + beta * D[i * n + j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    int m = argc > 2 ? atoi(argv[2]) : 150;
    if (n < 4) n = 4;
    if (m < 1) m = 1;
    size_t nn = (size_t)n * (size_t)n, nm = (size_t)n * (size_t)m;

    double *A = malloc(nm * sizeof *A), *B = malloc(nm * sizeof *B);
    double *C = malloc(nn * sizeof *C), *D = malloc(nn * sizeof *D);
    if (!A || !B || !C || !D) return 1;

    for (size_t t = 0; t < nm; t++) {
        A[t] = (double)((t * 7) % 19) * 0.05 - 0.3;
        B[t] = (double)((t * 5 + 3) % 23) * 0.04 - 0.35;
    }
    for (size_t t = 0; t < nn; t++) {
        C[t] = (double)(t % 9) * 0.25 + 0.5;
        D[t] = (double)((t * 3) % 11) * 0.2 - 0.6;
    }

    syrk_strict(n, m, 1.25, A, 0.5, C);
    tri_abt(n, m, 0.75, A, B, -1.5, D);

    double cs = 0.0, ds = 0.0, cw = 0.0, dw = 0.0;
    for (size_t t = 0; t < nn; t++) {          // expect: Reduction in main
        double w = (double)(1 + t % 7);
        cs += C[t];
        ds += D[t];
        cw += w * C[t];
        dw += w * D[t];
    }
    double cdiag = 0.0;
    for (int i = 0; i < n; i++)                // expect: Reduction in main
        cdiag += C[(size_t)i * n + i];

    printf("n m = %d %d\n", n, m);
    printf("C sum = %.10g  weighted = %.10g  diagonal = %.10g\n", cs, cw, cdiag);
    printf("D sum = %.10g  weighted = %.10g\n", ds, dw);
    printf("C[n-1][0] = %.10g  D[n-1][n-1] = %.10g\n", C[(size_t)(n - 1) * n], D[nn - 1]);
    free(A); free(B); free(C); free(D);
    return 0;
}
