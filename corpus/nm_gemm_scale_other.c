// corpus: near-miss GEMM, a beta-scaling step that scales a different matrix, or a different row, than the product updates, and a product whose inner loop also records every partial sum
// args: test=40 bench=1200
// near-miss: scale_other scales C but accumulates alpha*A*B into D (restrict: never the same matrix), scale_next_row scales row i but accumulates into row i+1 (so beta lands after the update), so neither nest is X = alpha*A*B + beta*X: their rank-1 updates are a GEMM with a store beside it, found, and the guard (the scaling must cover exactly the elements the updates write) runs the original code; gemm_trace stores each running sum C[i][j] into trace[k] inside the k loop, so the partial sums escape and none of its loops is a plain sum
#include <stdio.h>
#include <stdlib.h>

/* Meant to be D = alpha*A*B + beta*D; the scaling was pointed at C instead. */
void scale_other(int m, int n, int p, double alpha, double beta,
                 const double *restrict A, const double *restrict B,
                 double *restrict C, double *restrict D)
{
    for (int i = 0; i < m; i++) {              // expect: GEMM in scale_other
        for (int j = 0; j < n; j++)
            C[i * n + j] *= beta;
        for (int k = 0; k < p; k++) {
            double a = alpha * A[i * p + k];
            for (int j = 0; j < n; j++)
                D[i * n + j] += a * B[k * n + j];
        }
    }
}

/* Meant to be C = alpha*A*B + beta*C; the update is off by one row: row i is scaled, then
   alpha*A[i]*B is added to row i+1, which the next iteration scales (C has m+1 rows). */
void scale_next_row(int m, int n, int p, double alpha, double beta,
                    const double A[m][p], const double B[p][n], double C[m + 1][n])
{
    for (int i = 0; i < m; i++) {              // expect: GEMM in scale_next_row
        for (int j = 0; j < n; j++)
            C[i][j] *= beta;
        for (int k = 0; k < p; k++)
            for (int j = 0; j < n; j++)
                C[i + 1][j] += alpha * A[i][k] * B[k][j];
    }
}

/* C += A*B, keeping the partial sums of the entry being computed in trace[0..p-1]. */
void gemm_trace(int m, int n, int p, const double *A, const double *B, double *C,
                double *trace)
{
    for (int i = 0; i < m; i++) {              // expect-none: GEMM
        for (int j = 0; j < n; j++) {          // expect-none: GEMV
            for (int k = 0; k < p; k++) {      // expect-none: Reduction
                C[i * n + j] += A[i * p + k] * B[k * n + j];
                trace[k] = C[i * n + j];
            }
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    int m = n + 2, p = n - 1;
    size_t mn = (size_t)m * (size_t)n;

    double *A = malloc((size_t)m * (size_t)p * sizeof *A);
    double *B = malloc((size_t)p * (size_t)n * sizeof *B);
    double *C = malloc(mn * sizeof *C), *D = malloc(mn * sizeof *D);
    double *E = malloc(mn * sizeof *E), *trace = malloc((size_t)p * sizeof *trace);
    double *R = malloc((mn + (size_t)n) * sizeof *R);   /* m+1 rows */
    if (!A || !B || !C || !D || !E || !R || !trace) return 1;

    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            A[i * p + k] = (double)((i * 5 + k * 2) % 13) / 13.0 - 0.5;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            B[k * n + j] = (double)((k * 3 + j * 4) % 11) / 11.0 - 0.45;
    for (size_t t = 0; t < mn; t++) {
        C[t] = (double)(t % 7) * 0.5 - 1.0;
        D[t] = (double)(t % 5) * 0.5 - 1.0;
        E[t] = (double)(t % 3) - 1.0;
    }
    for (size_t t = 0; t < mn + (size_t)n; t++)
        R[t] = (double)(t % 4) * 0.5 - 0.25;
    for (int k = 0; k < p; k++)
        trace[k] = 0.0;

    scale_other(m, n, p, 1.5, 0.25, A, B, C, D);
    scale_next_row(m, n, p, 1.5, 0.25, (const double (*)[p])A, (const double (*)[n])B,
                   (double (*)[n])R);
    gemm_trace(m, n, p, A, B, E, trace);

    double cs = 0.0, ds = 0.0, es = 0.0, rs = 0.0;
    for (size_t t = 0; t < mn; t++) {          // expect: Reduction in main
        cs += C[t];
        ds += D[t];
        es += E[t];
        rs += R[t] * (double)(t % 3 + 1);
    }
    rs += R[mn] + R[mn + (size_t)n - 1];
    double ts = 0.0;
    for (int k = 0; k < p; k++)                // expect: Reduction in main
        ts += trace[k] * (double)(k % 4 + 1);
    printf("m n p = %d %d %d\n", m, n, p);
    printf("C sum = %.10g\n", cs);
    printf("D sum = %.10g\n", ds);
    printf("E sum = %.10g\n", es);
    printf("R sum = %.10g\n", rs);
    printf("trace = %.10g  last = %.10g\n", ts, trace[p - 1]);
    free(A); free(B); free(C); free(D); free(E); free(R); free(trace);
    return 0;
}
