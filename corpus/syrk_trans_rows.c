// corpus: SYRK, transposed form C = alpha*A^T*A + beta*C over the lower triangle, double ** row pointers, the sum kept in C[i][j] (i, j <= i, k order)
// args: test=40 bench=1200
#include <stdio.h>
#include <stdlib.h>

/* The lower triangle (j <= i, diagonal included) of C = alpha * A^T * A + beta * C, where A
   has m rows of n entries and C is n x n: C[i][j] collects column i of A against column j.
   The strictly upper triangle of C is neither read nor written. */
void syrk_at_lower(int n, int m, double alpha, double **A, double beta, double **C)
{
    for (int i = 0; i < n; i++) {              // expect: SYRK in syrk_at_lower
        for (int j = 0; j <= i; j++) {
            C[i][j] *= beta;
            for (int k = 0; k < m; k++)
                C[i][j] += alpha * A[k][i] * A[k][j];
        }
    }
}

/* rows x cols matrix as a table of row pointers into one block, rows ld = cols + 2 apart */
double **alloc_rows(int rows, int cols)
{
    int ld = cols + 2;
    double **r = malloc((size_t)rows * sizeof *r);
    double *block = malloc((size_t)rows * (size_t)ld * sizeof *block);
    if (!r || !block) exit(1);
    for (int i = 0; i < rows; i++)
        r[i] = block + (size_t)i * (size_t)ld;
    return r;
}

void free_rows(double **r)
{
    free(r[0]);
    free(r);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    int m = n + n / 4 + 1;

    double **A = alloc_rows(m, n), **C = alloc_rows(n, n);
    for (int k = 0; k < m; k++)
        for (int i = 0; i < n; i++)
            A[k][i] = (double)((k * 5 + i * 11) % 14) * 0.0625 - 0.4;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            C[i][j] = (double)((i + 4 * j) % 10) * 0.2 - 0.7;

    syrk_at_lower(n, m, 0.8, A, -0.25, C);

    /* lower triangle (weighted) and strictly upper triangle (unchanged) separately */
    double lower = 0.0, wlower = 0.0, upper = 0.0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {          // expect: Reduction in main
            double in_lower = (double)(j <= i);
            lower += in_lower * C[i][j];
            wlower += in_lower * C[i][j] * (double)(1 + (i + 2 * j) % 7);
            upper += (1.0 - in_lower) * C[i][j];
        }
    }
    printf("n m = %d %d\n", n, m);
    printf("lower = %.10g\n", lower);
    printf("weighted lower = %.10g\n", wlower);
    printf("upper = %.10g\n", upper);
    printf("C[n-1][0] = %.10g  C[n-1][n-1] = %.10g  C[n/2][n/3] = %.10g\n",
           C[n - 1][0], C[n - 1][n - 1], C[n / 2][n / 3]);
    free_rows(A); free_rows(C);
    return 0;
}
