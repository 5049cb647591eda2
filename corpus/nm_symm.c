// corpus: near-miss SYMM, loop nests written like BLAS's reference dsymm (rows of A's lower triangle scattered into the rows above, a sum for the row's own element) that do not compute C = alpha*A*B + beta*C with A symmetric; the product itself through a full symmetric matrix as a GEMM
// args: test=23 17 bench=900 800
// near-miss: the sum reading A's upper triangle (A[k][i]) beside the update's A[i][k], the diagonal's term left out of the final store, and the sum scaled by beta where the rest is scaled by alpha are none of them the symmetric product (each inner k loop's sum is a Reduction)
#include <stdio.h>
#include <stdlib.h>

/* As dsymm's reference loop, but the sum reads A[k][i], the upper triangle, while the
   update reads A[i][k]: unless A is stored symmetric (here it is not) the two halves come
   from different matrices. */
void symm_mixed_triangles(int m, int n, double alpha, double beta, double C[m][n],
                          double A[m][m], double B[m][n])
{
    for (int i = 0; i < m; i++) {              // expect-none: SYMM
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = 0; k < i; k++) {      // expect: Reduction in symm_mixed_triangles
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[k][i];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }
    }
}

/* The diagonal's term alpha * B[i][j] * A[i][i] left out: the product with A's strictly
   lower triangle mirrored and a zero diagonal, which no symmetric product over A's
   storage computes. */
void symm_no_diagonal(int m, int n, double alpha, double beta, double C[m][n],
                      double A[m][m], double B[m][n])
{
    for (int i = 0; i < m; i++) {              // expect-none: SYMM
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = 0; k < i; k++) {      // expect: Reduction in symm_no_diagonal
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * temp2;
        }
    }
}

/* The sum scaled by beta where the update and the diagonal's term are scaled by alpha:
   C's own element gets beta * (A's strictly lower part times B) in place of alpha times
   it, not the product (unless alpha happens to equal beta). */
void symm_sum_scaled_by_beta(int m, int n, double alpha, double beta, double C[m][n],
                             double A[m][m], double B[m][n])
{
    for (int i = 0; i < m; i++) {              // expect-none: SYMM
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = 0; k < i; k++) {      // expect: Reduction in symm_sum_scaled_by_beta
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + beta * temp2;
        }
    }
}

/* The symmetric product C = alpha * S * B + beta * C through S, the full symmetric matrix
   built from A's lower triangle: an ordinary GEMM. */
void gemm_full(int m, int n, double alpha, double beta, double C[m][n], double S[m][m],
               double B[m][n])
{
    for (int i = 0; i < m; i++) {              // expect: GEMM in gemm_full
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < m; k++)
                s += S[i][k] * B[k][j];
            C[i][j] = beta * C[i][j] + alpha * s;
        }
    }
}

static void fill_c(int m, int n, double C[m][n])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            C[i][j] = 0.5 + (double)((i * 3 + j * 5) % 13) * 0.0625;
}

double checksum(int m, int n, double C[m][n])
{
    double s = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)            // expect: Reduction in checksum
            s += C[i][j] * (double)(1 + (i + j) % 5);
    return s;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 250;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    double (*A)[m] = malloc(sizeof(double) * (size_t)m * (size_t)m);
    double (*S)[m] = malloc(sizeof(double) * (size_t)m * (size_t)m);
    double (*B)[n] = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double (*C)[n] = malloc(sizeof(double) * (size_t)m * (size_t)n);
    if (!A || !S || !B || !C) return 1;

    /* A's lower triangle at most 1/m off the diagonal, the diagonal 1.25; its strictly
       upper triangle holds other small positive values (A is not symmetric) */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            A[i][k] = k < i ? (double)((i * 5 + k * 3) % 17 + 1) / (17.0 * m)
                    : k == i ? 1.25 : (double)((i + k * 7) % 11 + 1) / (11.0 * m);
    for (int i = 0; i < m; i++)
        for (int k = 0; k < m; k++)
            S[i][k] = k <= i ? A[i][k] : A[k][i];
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 0.25 + (double)((i * 7 + j * 2) % 19) * 0.05;

    fill_c(m, n, C);
    symm_mixed_triangles(m, n, 0.5, 0.75, C, A, B);
    double mixed = checksum(m, n, C);

    fill_c(m, n, C);
    symm_no_diagonal(m, n, 0.5, 0.75, C, A, B);
    double no_diag = checksum(m, n, C);

    fill_c(m, n, C);
    symm_sum_scaled_by_beta(m, n, 0.5, 0.75, C, A, B);
    double beta_sum = checksum(m, n, C);

    fill_c(m, n, C);
    gemm_full(m, n, 0.5, 0.75, C, S, B);
    double full = checksum(m, n, C);

    double corner = 0.0;
    for (int i = 0; i < m; i++)                // expect: Reduction in main
        corner += C[i][0] + B[i][n - 1] * C[i][n - 1];

    printf("m n = %d %d\n", m, n);
    printf("mixed triangles = %.10g\n", mixed);
    printf("no diagonal = %.10g\n", no_diag);
    printf("sum scaled by beta = %.10g\n", beta_sum);
    printf("full symmetric gemm = %.10g\n", full);
    printf("corner = %.10g\n", corner);
    printf("C[0][0] = %.10g  C[m/2][n/2] = %.10g  C[m-1][n-1] = %.10g\n",
           C[0][0], C[m / 2][n / 2], C[m - 1][n - 1]);
    free(A); free(S); free(B); free(C);
    return 0;
}
