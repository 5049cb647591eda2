// direct: gemm_memacc_rows.c: gemm_rows's loop nest as a cblas_dgemm call when the row tables are equally spaced
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

/* C = A*B + beta*C for an m x p A and a p x n B given as tables of row pointers;
   each C[i][j] is scaled, then accumulated in place over k. */
void gemm_rows(int m, int n, int p, double beta, double **A, double **B, double **C)
{
    if (m > 0 && n > 0 && p > 0) {
        int lda = row_stride(A, m, p), ldb = row_stride(B, p, n), ldc = row_stride(C, m, n);
        if (lda > 0 && ldb > 0 && ldc > 0) {
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, p,
                        1.0, A[0], lda, B[0], ldb, beta, C[0], ldc);
            return;
        }
    }
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            C[i][j] *= beta;
            for (int k = 0; k < p; k++)
                C[i][j] += A[i][k] * B[k][j];
        }
    }
}

/* a matrix of rows rows as row pointers into one block, each row ld elements after the last */
double **alloc_matrix(int rows, int ld)
{
    double **r = malloc((size_t)rows * sizeof *r);
    double *block = malloc((size_t)rows * (size_t)ld * sizeof *block);
    if (!r || !block) exit(1);
    for (int i = 0; i < rows; i++)
        r[i] = block + (size_t)i * (size_t)ld;
    return r;
}

void free_matrix(double **r)
{
    free(r[0]);
    free(r);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    int m = n - 3, p = n + 7;

    double **A = alloc_matrix(m, p + 2);
    double **B = alloc_matrix(p, n);
    double **C = alloc_matrix(m, n + 5);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            A[i][k] = (double)((i * 11 + k * 4) % 15) / 15.0 - 0.5;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            B[k][j] = (double)((k * 6 + j * 5) % 19) / 19.0 - 0.45;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            C[i][j] = (double)((i * 2 + j) % 10) * 0.1;

    gemm_rows(m, n, p, -0.75, A, B, C);

    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            sum += C[i][j];
            wsum += C[i][j] * (double)((i * 3 + j) % 7 - 3);
        }
    }
    printf("m n p = %d %d %d\n", m, n, p);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("C[1][2] = %.10g\n", C[1][2]);
    printf("C[m-1][0] = %.10g\n", C[m - 1][0]);
    free_matrix(A); free_matrix(B); free_matrix(C);
    return 0;
}
