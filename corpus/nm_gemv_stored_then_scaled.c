// corpus: near-miss GEMV, matrix-vector sums kept in memory (y[j] += ... on every trip) that the loop around then changes again: an in-place triangular product scaled after its sum, and row sums passed through sqrt
// args: test=37 29 bench=1600 1400
// near-miss: after each sum the outer loop stores the element again (B[i][j] = alpha * B[i][j], y[i] = sqrt(y[i])): the nest is no y <- A x + y, and replacing the sum alone would drop the second store
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* B <- alpha * (B + L^T B) in place, row i from the rows below it (not yet updated). */
void tri_scaled_after(int m, int n, double alpha, double L[m][m], double B[m][n])
{
    /* a TRMM (B <- alpha T B, T unit upper from L^T), but not a GEMV: B[i][j] is scaled
       after its sum, and every row reads the rows below */
    for (int i = 0; i < m; i++) {                          // expect: TRMM in tri_scaled_after
        for (int j = 0; j < n; j++) {                      // expect-none: GEMV
            for (int k = i + 1; k < m; k++)
                B[i][j] += L[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
    }
}

/* y[i] <- sqrt(y[i] + sum_j A[i][j]^2 x[j]): the sum is kept in y (which may alias A). */
void row_norms(int m, int n, const double *A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {                          // expect-none: GEMV
        for (int j = 0; j < n; j++)                        // expect: Reduction in row_norms
            y[i] += A[i * n + j] * (A[i * n + j] * x[j]);
        y[i] = sqrt(y[i]);
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 1600;
    int n = argc > 2 ? atoi(argv[2]) : 1400;
    double *L = malloc(sizeof(double) * (size_t)m * (size_t)m);
    double *B = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double *x = malloc(sizeof(double) * (size_t)n);
    double *y = malloc(sizeof(double) * (size_t)m);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            L[i * m + k] = (double)((i * 7 + k * 3) % 11) / 40.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i * n + j] = (double)((i * 5 + j) % 13) / 12.0;
    for (int j = 0; j < n; j++)
        x[j] = 1.0 + (double)(j % 5) / 4.0;
    for (int i = 0; i < m; i++)
        y[i] = (double)(i % 3);

    tri_scaled_after(m, n, 0.5, (double (*)[m])L, (double (*)[n])B);
    row_norms(m, n, B, x, y);

    double sum_b = 0.0;
    for (int i = 0; i < m * n; i++)                        // expect: Reduction in main
        sum_b += B[i];
    double sum_y = 0.0;
    for (int i = 0; i < m; i++)                            // expect: Reduction in main
        sum_y += y[i];
    printf("B %.10g first %.10g last %.10g\n", sum_b, B[0], B[m * n - 1]);
    printf("y %.10g first %.10g\n", sum_y, y[0]);
    free(L);
    free(B);
    free(x);
    free(y);
    return 0;
}
