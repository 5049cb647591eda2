// corpus: near-miss SYMM, loop nests written like the rows-below (upper triangle, rows counting down) and the right-side (C = alpha*B*A + beta*C) symmetric products that do not compute them
// args: test=21 18 bench=700 600
// near-miss: the sum reading the other triangle (A[k][i]) beside the update's A[i][k] and the diagonal's term left out are not the product, and the IDL does not find them (each inner k loop's sum is a Reduction); the upper triangle with the rows counting up and the lower one on the right with the columns counting down (a row would add to rows not finished yet) are not found either (blas.idl's RowBoundedLoop ties the rows' direction to the triangle's side: their sums are Reductions); the sums taking the diagonal too (k >= i, k <= j: declined by the guard's triangle at run time) are found as SYMM and never replaced by a call that runs
#include <stdio.h>
#include <stdlib.h>

/* The rows-below form, but the sum reads A[k][i], the lower triangle, while the update
   reads A[i][k]: unless A is stored symmetric (here it is not) the two halves come from
   different matrices. */
void symm_upper_mixed_triangles(int m, int n, double alpha, double beta, double C[m][n],
                                double A[m][m], double B[m][n])
{
    for (int i = m - 1; i >= 0; i--) {         // expect-none: SYMM
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = i + 1; k < m; k++) {  // expect: Reduction in symm_upper_mixed_triangles
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[k][i];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }
    }
}

/* A on the right without the diagonal's term alpha * B[i][j] * A[j][j]: the product with
   A's strictly lower triangle mirrored and a zero diagonal, which no symmetric product
   over A's storage computes. */
void symm_right_no_diagonal(int m, int n, double alpha, double beta, double C[m][n],
                            double A[n][n], double B[m][n])
{
    for (int i = 0; i < m; i++) {              // expect-none: SYMM
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = 0; k < j; k++) {      // expect: Reduction in symm_right_no_diagonal
                C[i][k] += alpha * B[i][j] * A[j][k];
                temp2 += B[i][k] * A[j][k];
            }
            C[i][j] = beta * C[i][j] + alpha * temp2;
        }
    }
}

/* The upper triangle with the rows counting up: row i adds to the rows below it before
   their own store scales them by beta, so those additions are scaled too. */
void symm_upper_rows_up(int m, int n, double alpha, double beta, double C[m][n],
                        double A[m][m], double B[m][n])
{
    for (int i = 0; i < m; i++) {              // expect-none: SYMM
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = i + 1; k < m; k++) {  // expect: Reduction in symm_upper_rows_up
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }
    }
}

/* The rows-below form with the diagonal in the sum too (k >= i) and again after it. */
void symm_upper_diagonal_twice(int m, int n, double alpha, double beta, double C[m][n],
                               double A[m][m], double B[m][n])
{
    for (int i = m - 1; i >= 0; i--) {         // expect: SYMM in symm_upper_diagonal_twice
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = i; k < m; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }
    }
}

/* A on the right from its lower triangle with the columns counting down: column j adds
   to the columns before it, whose own store comes later and scales the additions by
   beta. */
void symm_right_columns_down(int m, int n, double alpha, double beta, double C[m][n],
                             double A[n][n], double B[m][n])
{
    for (int i = 0; i < m; i++) {              // expect-none: SYMM
        for (int j = n - 1; j >= 0; j--) {
            double temp2 = 0.0;
            for (int k = 0; k < j; k++) {      // expect: Reduction in symm_right_columns_down
                C[i][k] += alpha * B[i][j] * A[j][k];
                temp2 += B[i][k] * A[j][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[j][j] + alpha * temp2;
        }
    }
}

/* A on the right with the diagonal in the sum too (k <= j) and again after it. */
void symm_right_diagonal_twice(int m, int n, double alpha, double beta, double C[m][n],
                               double A[n][n], double B[m][n])
{
    for (int i = 0; i < m; i++) {              // expect: SYMM in symm_right_diagonal_twice
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = 0; k <= j; k++) {
                C[i][k] += alpha * B[i][j] * A[j][k];
                temp2 += B[i][k] * A[j][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[j][j] + alpha * temp2;
        }
    }
}

static void fill_c(int m, int n, double C[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            C[i][j] = 0.5 + (double)((i * 5 + j * 3) % 11) * 0.0625;
}

double checksum(int m, int n, double C[m][n])
{
    double s = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)            // expect: Reduction in checksum
            s += C[i][j] * (double)(1 + (i * 2 + j) % 5);
    return s;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 250;
    if (m < 2) m = 2;
    if (n < 2) n = 2;

    double (*A)[m] = malloc(sizeof(double) * (size_t)m * (size_t)m);
    double (*R)[n] = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double (*B)[n] = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double (*C)[n] = malloc(sizeof(double) * (size_t)m * (size_t)n);
    if (!A || !R || !B || !C) return 1;

    /* A (m x m, on the left) and R (n x n, on the right): small positive values off the
       diagonal, at most 1/m or 1/n, different in the two triangles (not symmetric), the
       diagonal 1.25 */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            A[i][k] = k == i ? 1.25
                    : k < i ? (double)((i * 5 + k * 3) % 17 + 1) / (17.0 * m)
                    : (double)((i + k * 7) % 11 + 1) / (11.0 * m);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
            R[j][k] = k == j ? 1.25
                    : k < j ? (double)((j * 3 + k * 2) % 13 + 1) / (13.0 * n)
                    : (double)((j * 7 + k) % 19 + 1) / (19.0 * n);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 0.25 + (double)((i * 3 + j * 7) % 19) * 0.05;

    double sums[6];
    fill_c(m, n, C);
    symm_upper_mixed_triangles(m, n, 0.5, 0.75, C, A, B);
    sums[0] = checksum(m, n, C);
    fill_c(m, n, C);
    symm_right_no_diagonal(m, n, 0.5, 0.75, C, R, B);
    sums[1] = checksum(m, n, C);
    fill_c(m, n, C);
    symm_upper_rows_up(m, n, 0.5, 0.75, C, A, B);
    sums[2] = checksum(m, n, C);
    fill_c(m, n, C);
    symm_upper_diagonal_twice(m, n, 0.5, 0.75, C, A, B);
    sums[3] = checksum(m, n, C);
    fill_c(m, n, C);
    symm_right_columns_down(m, n, 0.5, 0.75, C, R, B);
    sums[4] = checksum(m, n, C);
    fill_c(m, n, C);
    symm_right_diagonal_twice(m, n, 0.5, 0.75, C, R, B);
    sums[5] = checksum(m, n, C);

    printf("m n = %d %d\n", m, n);
    printf("upper, mixed triangles = %.10g\n", sums[0]);
    printf("right, no diagonal = %.10g\n", sums[1]);
    printf("upper, rows up = %.10g\n", sums[2]);
    printf("upper, diagonal twice = %.10g\n", sums[3]);
    printf("right, columns down = %.10g\n", sums[4]);
    printf("right, diagonal twice = %.10g\n", sums[5]);
    printf("C[0][0] = %.10g  C[m/2][n/2] = %.10g  C[m-1][n-1] = %.10g\n",
           C[0][0], C[m / 2][n / 2], C[m - 1][n - 1]);
    free(A); free(R); free(B); free(C);
    return 0;
}
