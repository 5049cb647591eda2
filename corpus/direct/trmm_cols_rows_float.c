// direct: trmm_cols_rows_float.c: strmm_cols_lower's loop nest as a cblas_strmm call (Left, Lower, NoTrans, NonUnit), when the rows lie equally spaced
// args: test=36 28 bench=1900 2000
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

/* B <- alpha * L * B in place, L the lower triangle of the m x m matrix A (diagonal
   included, the strictly upper triangle never read), B m x n. Column by column: row i of
   a column reads the rows above it, which the rows counting down have not updated yet. */
void strmm_cols_lower(int m, int n, float alpha, float **A, float **B)
{
    int lda = row_stride(A, m, m), ldb = row_stride(B, m, n);
    if (lda > 0 && ldb > 0) {
        cblas_strmm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, m, n,
                    alpha, A[0], lda, B[0], ldb);
        return;
    }
    for (int j = 0; j < n; j++) {
        for (int i = m - 1; i >= 0; i--) {
            float s = 0.0f;
            for (int k = 0; k <= i; k++)
                s += A[i][k] * B[k][j];
            B[i][j] = alpha * s;
        }
    }
}

/* rows x cols matrix as a table of row pointers into one block, rows ld = cols + 3 apart;
   the 3 padding entries of each row hold `pad` */
float **alloc_rows(int rows, int cols, float pad)
{
    int ld = cols + 3;
    float **r = malloc((size_t)rows * sizeof *r);
    float *block = malloc((size_t)rows * (size_t)ld * sizeof *block);
    if (!r || !block) exit(1);
    for (int i = 0; i < rows; i++) {
        r[i] = block + (size_t)i * (size_t)ld;
        for (int c = cols; c < ld; c++)
            r[i][c] = pad;
    }
    return r;
}

void free_rows(float **r)
{
    free(r[0]);
    free(r);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 240;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    float **A = alloc_rows(m, m, 250.0f), **B = alloc_rows(m, n, -5.0f);

    /* a small integer LCG: the strictly lower triangle in [0.2/m, 1/m], the diagonal
       between 1 and 2, the strictly upper triangle values the product must not read */
    unsigned int seed = 99u;
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < m; k++) {
            seed = seed * 1664525u + 1013904223u;
            float r = (float)(seed >> 22) / 1024.0f;
            A[i][k] = k < i ? (0.2f + 0.8f * r) / (float)m : k == i ? 1.0f + r : -9.0f - r;
        }
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 0.5f + (float)((i * 5 + j * 7) % 13) * 0.0625f;

    strmm_cols_lower(m, n, 0.75f, A, B);

    /* B weighted by row and column, a row, and the padding (unchanged) */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n + 3; j++) {
            double in_b = (double)(j < n);
            total += in_b * B[i][j];
            weighted += in_b * B[i][j] * (double)(1 + (2 * i + j) % 7);
            pad += (1.0 - in_b) * B[i][j];
        }
    }
    double last_row = 0.0;
    for (int j = 0; j < n; j++)
        last_row += B[m - 1][j];

    printf("m n = %d %d\n", m, n);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("last row = %.10g\n", last_row);
    printf("padding = %.10g\n", pad);
    printf("B[0][0] = %.10g  B[m/2][n/2] = %.10g  B[m-1][n-1] = %.10g\n",
           (double)B[0][0], (double)B[m / 2][n / 2], (double)B[m - 1][n - 1]);
    free_rows(A); free_rows(B);
    return 0;
}
