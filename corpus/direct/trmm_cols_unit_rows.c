// direct: trmm_cols_unit_rows.c: dtrmm_cols_upper_unit's loop nest as a cblas_dtrmm call (Left, Upper, NoTrans, Unit), when the rows lie equally spaced
// args: test=34 27 bench=1600 1500
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

/* B <- U * B in place, U the unit upper triangle of the m x m matrix A (the diagonal taken
   as one and not read, the strictly lower triangle never read), B m x n. Column by
   column: row i adds the rows below it in the column, which the rows counting up have
   not updated yet; the last row adds nothing. */
void dtrmm_cols_upper_unit(int m, int n, double **A, double **B)
{
    int lda = row_stride(A, m, m), ldb = row_stride(B, m, n);
    if (lda > 0 && ldb > 0) {
        cblas_dtrmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasUnit, m, n,
                    1.0, A[0], lda, B[0], ldb);
        return;
    }
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            double s = B[i][j];
            for (int k = i + 1; k < m; k++)
                s += A[i][k] * B[k][j];
            B[i][j] = s;
        }
    }
}

/* rows x cols matrix as a table of row pointers into one block, rows ld = cols + 1 apart;
   the padding entry of each row holds `pad` */
double **alloc_rows(int rows, int cols, double pad)
{
    int ld = cols + 1;
    double **r = malloc((size_t)rows * sizeof *r);
    double *block = malloc((size_t)rows * (size_t)ld * sizeof *block);
    if (!r || !block) exit(1);
    for (int i = 0; i < rows; i++) {
        r[i] = block + (size_t)i * (size_t)ld;
        r[i][cols] = pad;
    }
    return r;
}

void free_rows(double **r)
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

    double **A = alloc_rows(m, m, 400.0), **B = alloc_rows(m, n, -7.0);

    /* the strictly upper triangle of either sign, at most 1/m (a row of U sums to less
       than 2 in absolute value); the diagonal and the lower triangle values the product
       must not read */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            A[i][k] = k > i ? ((double)((i * 17 + k * 5) % 37) - 15.0) / (37.0 * m)
                    : k == i ? 81.0 : -2.5 - (double)(k % 3);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 1.0 + (double)((i * 6 + j * 5) % 11) * 0.0625;

    dtrmm_cols_upper_unit(m, n, A, B);

    /* B weighted by row and column, a row, and the padding (unchanged) */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n + 1; j++) {
            double in_b = (double)(j < n);
            total += in_b * B[i][j];
            weighted += in_b * B[i][j] * (double)(1 + (3 * i + j) % 7);
            pad += (1.0 - in_b) * B[i][j];
        }
    }
    double first_row = 0.0;
    for (int j = 0; j < n; j++)
        first_row += B[0][j];

    printf("m n = %d %d\n", m, n);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("first row = %.10g\n", first_row);
    printf("padding = %.10g\n", pad);
    printf("B[0][0] = %.10g  B[m/2][n/2] = %.10g  B[m-1][n-1] = %.10g\n",
           B[0][0], B[m / 2][n / 2], B[m - 1][n - 1]);
    free_rows(A); free_rows(B);
    return 0;
}
