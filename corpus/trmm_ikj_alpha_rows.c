// corpus: TRMM, in-place B = alpha*U*B in i-k-j order with U unit upper triangular (A's diagonal taken as one, never read), double ** row tables into one block: row i adds A[i][k] times the rows below it, then is scaled by alpha in a loop of its own
// args: test=38 31 bench=2000 1900
#include <stdio.h>
#include <stdlib.h>

/* B <- alpha * U * B in place, U the unit upper triangle of the m x m matrix A (the
   diagonal taken as one and not read, the strictly lower triangle never read), B m x n.
   Row i adds A[i][k] times each row k below it, which the rows counting up have not
   updated (nor scaled) yet, and is then scaled. */
void dtrmm_ikj_upper_alpha(int m, int n, double alpha, double **A, double **B)
{
    for (int i = 0; i < m; i++) {              // expect: TRMM in dtrmm_ikj_upper_alpha
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i][j] += A[i][k] * B[k][j];
        for (int j = 0; j < n; j++)
            B[i][j] = alpha * B[i][j];
    }
}

/* rows x cols matrix as a table of row pointers into one block, rows ld = cols + 2 apart;
   the 2 padding entries of each row hold `pad` */
double **alloc_rows(int rows, int cols, double pad)
{
    int ld = cols + 2;
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

    double **A = alloc_rows(m, m, 90.0), **B = alloc_rows(m, n, 4.0);

    /* a small integer LCG: the strictly upper triangle of either sign, at most 1/m; the
       diagonal and the lower triangle values the product must not read */
    unsigned int seed = 31337u;
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < m; k++) {
            seed = seed * 1664525u + 1013904223u;
            double r = (double)(seed >> 22) / 1024.0;
            A[i][k] = k > i ? (r - 0.42) / (double)m : k == i ? 12.0 : -50.0 - r;
        }
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 0.5 + (double)((i * 7 + j * 2) % 19) * 0.0625;

    dtrmm_ikj_upper_alpha(m, n, 0.625, A, B);

    /* B weighted by row and column, a column, and the padding (unchanged) */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n + 2; j++) {       // expect: Reduction in main
            double in_b = (double)(j < n);
            total += in_b * B[i][j];
            weighted += in_b * B[i][j] * (double)(1 + (i + 4 * j) % 9);
            pad += (1.0 - in_b) * B[i][j];
        }
    }
    double mid_col = 0.0;
    for (int i = 0; i < m; i++)                 // expect: Reduction in main
        mid_col += B[i][n / 2];

    printf("m n = %d %d\n", m, n);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("middle column = %.10g\n", mid_col);
    printf("padding = %.10g\n", pad);
    printf("B[0][0] = %.10g  B[m/2][n/2] = %.10g  B[m-1][n-1] = %.10g\n",
           B[0][0], B[m / 2][n / 2], B[m - 1][n - 1]);
    free_rows(A); free_rows(B);
    return 0;
}
