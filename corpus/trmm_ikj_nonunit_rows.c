// corpus: TRMM, in-place B = L*B in i-k-j order with L lower triangular (A's diagonal used), double ** row tables into one block: each row of B first multiplied by its diagonal element, read through the row table, then the rows above it added, the rows counting down
// args: test=36 33 bench=2000 1900
#include <stdio.h>
#include <stdlib.h>

/* B <- L * B in place, L the lower triangle of the m x m matrix A (diagonal included, the
   strictly upper triangle never read), B m x n. Row i is scaled by A[i][i], then adds
   A[i][k] times each row k above it, which the rows counting down have not updated. */
void dtrmm_ikj_lower(int m, int n, double **A, double **B)
{
    for (int i = m - 1; i >= 0; i--) {         // expect: TRMM in dtrmm_ikj_lower
        for (int j = 0; j < n; j++)
            B[i][j] = A[i][i] * B[i][j];
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i][j] += A[i][k] * B[k][j];
    }
}

/* rows x cols matrix as a table of row pointers into one block, rows ld = cols + 3 apart;
   the 3 padding entries of each row hold `pad` */
double **alloc_rows(int rows, int cols, double pad)
{
    int ld = cols + 3;
    double **r = malloc((size_t)rows * sizeof *r);
    double *block = malloc((size_t)rows * (size_t)ld * sizeof *block);
    if (!r || !block) exit(1);
    for (int i = 0; i < rows; i++) {
        r[i] = block + (size_t)i * (size_t)ld;
        for (int c = cols; c < ld; c++)
            r[i][c] = pad;
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

    double **A = alloc_rows(m, m, -60.0), **B = alloc_rows(m, n, 2.5);

    /* the diagonal between 0.5 and 1.25, the strictly lower triangle of either sign at most
       1/m; the upper triangle values the product must not read */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            A[i][k] = k < i ? ((double)((i * 11 + k * 4) % 31) - 13.0) / (31.0 * m)
                    : k == i ? 0.5 + (double)(i % 4) * 0.25 : 210.0 + (double)(i % 5);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 0.75 + (double)((i * 2 + j * 9) % 17) * 0.0625;

    dtrmm_ikj_lower(m, n, A, B);

    /* B weighted by row and column, a row, and the padding (unchanged) */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n + 3; j++) {       // expect: Reduction in main
            double in_b = (double)(j < n);
            total += in_b * B[i][j];
            weighted += in_b * B[i][j] * (double)(1 + (2 * i + 3 * j) % 11);
            pad += (1.0 - in_b) * B[i][j];
        }
    }
    double last_row = 0.0;
    for (int j = 0; j < n; j++)                 // expect: Reduction in main
        last_row += B[m - 1][j];

    printf("m n = %d %d\n", m, n);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("last row = %.10g\n", last_row);
    printf("padding = %.10g\n", pad);
    printf("B[0][0] = %.10g  B[m/2][n/2] = %.10g  B[m-1][n-1] = %.10g\n",
           B[0][0], B[m / 2][n / 2], B[m - 1][n - 1]);
    free_rows(A); free_rows(B);
    return 0;
}
