// direct: symm_upper_rows.c: symm_upper_rows's loop nest as a cblas_dsymm call (RowMajor, Left, Upper), each matrix's rows one block, its leading dimension the distance between its first two rows
// args: test=19 24 1 bench=600 520 12
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* C <- alpha * A * B + beta * C, C and B m x n, A the m x m symmetric matrix of which
   only the upper triangle (the diagonal included) is read; every matrix a table of row
   pointers. */
void symm_upper_rows(int m, int n, double alpha, double beta, double **C, double **A,
                     double **B)
{
    if (m <= 0 || n <= 0)
        return;
    int lda = m > 1 ? (int)(A[1] - A[0]) : m, ldb = m > 1 ? (int)(B[1] - B[0]) : n;
    int ldc = m > 1 ? (int)(C[1] - C[0]) : n;
    cblas_dsymm(CblasRowMajor, CblasLeft, CblasUpper, m, n, alpha, A[0], lda, B[0], ldb, beta,
                C[0], ldc);
}

/* rows row pointers into one block, rows ld elements apart */
static double **rows_of(double *block, int rows, int ld)
{
    double **r = malloc((size_t)rows * sizeof *r);
    if (!r) return NULL;
    for (int i = 0; i < rows; i++)
        r[i] = block + (size_t)i * ld;
    return r;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 100;
    int n = argc > 2 ? atoi(argv[2]) : 80;
    int reps = argc > 3 ? atoi(argv[3]) : 2;
    if (m < 2) m = 2;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;
    int lda = m + 1, ldb = n + 3, ldc = n + 2;

    double *blockA = malloc((size_t)m * lda * sizeof *blockA);
    double *blockB = malloc((size_t)m * ldb * sizeof *blockB);
    double *blockC = malloc((size_t)m * ldc * sizeof *blockC);
    if (!blockA || !blockB || !blockC) return 1;
    double **A = rows_of(blockA, m, lda);
    double **B = rows_of(blockB, m, ldb);
    double **C = rows_of(blockC, m, ldc);
    if (!A || !B || !C) return 1;

    /* A's strictly upper triangle from a small LCG, positive and at most 1/m, the diagonal
       0.5 to 1; the strictly lower triangle and the padding hold values the product must
       not read */
    unsigned lcg = 8765u;
    for (int i = 0; i < m; i++)
        for (int k = 0; k < lda; k++) {
            lcg = lcg * 1103515245u + 12345u;
            A[i][k] = k >= m ? 1.0e30
                    : k > i ? (double)(1 + (lcg >> 16) % 64) / (64.0 * m)
                    : k == i ? 0.5 + (double)(i % 9) / 16.0 : -30.0;
        }
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < ldb; j++)
            B[i][j] = j < n ? 0.2 + (double)((i * 3 + j * 4) % 19) / 19.0 : -1.0e30;
        for (int j = 0; j < ldc; j++)
            C[i][j] = j < n ? 1.0 + (double)((i + j * 3) % 5) * 0.25 : 2.0;
    }

    /* C <- (0.75 A B + 0.5 C) / 2: the values stay between 0.1 and 4 */
    for (int r = 0; r < reps; r++) {
        symm_upper_rows(m, n, 0.75, 0.5, C, A, B);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                C[i][j] *= 0.5;
    }

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            total += C[i][j];
            weighted += C[i][j] * (double)(1 + (i * 2 + j) % 6);
        }
    double pad = 0.0;
    for (int i = 0; i < m; i++)
        pad += C[i][n] + C[i][ldc - 1];

    printf("m n reps = %d %d %d\n", m, n, reps);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("padding = %.10g\n", pad);
    printf("C[0][0] = %.10g  C[m/2][n/3] = %.10g  C[m-1][n-1] = %.10g\n",
           C[0][0], C[m / 2][n / 3], C[m - 1][n - 1]);
    free(A); free(B); free(C); free(blockA); free(blockB); free(blockC);
    return 0;
}
