// direct: syrk_trans_rows.c: syrk_at_lower's loop nest as a cblas_dsyrk call (Trans), when the rows lie equally spaced
// args: test=40 bench=1200
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* Leading dimension of a matrix given as row pointers: the distance ld, in elements, from
   one row to the next when every row r[i] lies at r[0] + i*ld with ld >= cols (the rows
   then form one strided matrix that BLAS can take); 0 when they do not. */
static int row_stride(double **r, int rows, int cols)
{
    if (rows < 1 || cols < 1)
        return 0;
    if (rows == 1)
        return cols;
    long ld = r[1] - r[0];
    if (ld < cols || ld > 2147483647L)
        return 0;
    for (int i = 2; i < rows; i++)
        if (r[i] - r[0] != (long)i * ld)
            return 0;
    return (int)ld;
}

/* The lower triangle (j <= i, diagonal included) of C = alpha * A^T * A + beta * C, where A
   has m rows of n entries and C is n x n: C[i][j] collects column i of A against column j.
   The strictly upper triangle of C is neither read nor written. */
void syrk_at_lower(int n, int m, double alpha, double **A, double beta, double **C)
{
    int lda = row_stride(A, m, n), ldc = row_stride(C, n, n);
    if (lda > 0 && ldc > 0) {
        cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, n, m,
                    alpha, A[0], lda, beta, C[0], ldc);
        return;
    }
    for (int i = 0; i < n; i++) {
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
        for (int j = 0; j < n; j++) {
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
