// direct: gemm_transB_rows.c: mul_abt's loop nest as a cblas_sgemm call
// args: test=40 bench=1600
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* Leading dimension of a matrix given as row pointers: the distance ld, in elements, from
   one row to the next when every row r[i] lies at r[0] + i*ld with ld >= cols (the rows
   then form one strided matrix that BLAS can take); 0 when they do not. */
static int row_stride(float **r, int rows, int cols)
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

/* C[i][j] = sum_k A[i][k] * Bt[j][k]: A is m x p, Bt is n x p (B stored transposed). */
void mul_abt(int m, int n, int p, float **A, float **Bt, float **C)
{
    int lda = row_stride(A, m, p), ldb = row_stride(Bt, n, p), ldc = row_stride(C, m, n);
    if (lda > 0 && ldb > 0 && ldc > 0) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, p,
                    1.0f, A[0], lda, Bt[0], ldb, 0.0f, C[0], ldc);
        return;
    }
    for (int i = m - 1; i >= 0; i--) {
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * Bt[j][k];
            C[i][j] = acc;
        }
    }
}

float **alloc_rows(int rows, int cols)
{
    float **r = malloc((size_t)rows * sizeof *r);
    if (!r) exit(1);
    for (int i = 0; i < rows; i++) {
        r[i] = malloc((size_t)cols * sizeof **r);
        if (!r[i]) exit(1);
    }
    return r;
}

void free_rows(float **r, int rows)
{
    for (int i = 0; i < rows; i++) free(r[i]);
    free(r);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 4) n = 4;
    int m = n + 3, p = n / 2 + 1;

    float **A = alloc_rows(m, p), **Bt = alloc_rows(n, p), **C = alloc_rows(m, n);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++)
            A[i][k] = (float)((i * 13 + k * 7) % 16) / 16.0f - 0.5f;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < p; k++)
            Bt[j][k] = (float)((j * 3 + k * 9) % 10) / 10.0f - 0.3f;

    mul_abt(m, n, p, A, Bt, C);

    /* trace of the leading square, first row, last column */
    double tr = 0.0, r0 = 0.0, cl = 0.0;
    for (int i = 0; i < n; i++) {
        tr += C[i][i];
        r0 += C[0][i];
        cl += C[i][n - 1];
    }
    printf("m n p = %d %d %d\n", m, n, p);
    printf("trace = %.6e\n", tr);
    printf("row0 = %.6e\n", r0);
    printf("lastcol = %.6e\n", cl);
    printf("C[m-1][1] = %.6e\n", (double)C[m - 1][1]);
    free_rows(A, m); free_rows(Bt, n); free_rows(C, m);
    return 0;
}
