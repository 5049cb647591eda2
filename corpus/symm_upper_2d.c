// corpus: SYMM, C = alpha*A*B + beta*C with A symmetric read from its upper triangle, written by rows of A counting down as BLAS's reference dsymm writes its lower case (each row adds to the rows below it, finished by then), on fixed-size 2D array parameters (#define), m and n from the parameters, repeated with C kept from call to call
// args: test=35 26 2 bench=640 560 12
#include <stdio.h>
#include <stdlib.h>

#define M 640
#define N 560

static double C[M][N], A[M][M], B[M][N];

/* C <- alpha * A * B + beta * C over the leading m x n block of C and B, A symmetric
   (m x m) and read only from its upper triangle (k >= i): row i, from the last up, adds
   A[i][k] B[i][j] to the rows k below it, which are finished by then, and gives its own
   element the rest of its sum, A[i][k] B[k][j] over k > i and the diagonal's term. */
void symm_upper(int m, int n, double alpha, double beta, double C[M][N], double A[M][M],
                double B[M][N])
{
    for (int i = m - 1; i >= 0; i--) {         // expect: SYMM in symm_upper
        for (int j = 0; j < n; j++) {
            double temp2 = 0.0;
            for (int k = i + 1; k < m; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 200;
    int n = argc > 2 ? atoi(argv[2]) : 150;
    int reps = argc > 3 ? atoi(argv[3]) : 2;
    if (m < 2) m = 2;
    if (m > M) m = M;
    if (n < 1) n = 1;
    if (n > N) n = N;
    if (reps < 1) reps = 1;

    /* the strictly upper triangle at most 1/m, the diagonal between 1 and 1.5 (a row of the
       symmetric matrix sums to less than 2.5); the strictly lower triangle holds a value
       the product must not read */
    for (int i = 0; i < M; i++)
        for (int k = 0; k < M; k++)
            A[i][k] = k > i ? (double)((i * 5 + k * 9) % 17 + 1) / (17.0 * m)
                    : k == i ? 1.0 + (double)(i % 3) * 0.25
                    : -35.0 - (double)(k % 4);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            B[i][j] = 0.3 + (double)((i * 7 + j * 2) % 23) * 0.04;
            C[i][j] = 0.5 + (double)((i * 3 + j * 5) % 13) * 0.0625;
        }

    /* alpha * |A| < 1 and beta = 0.5: C stays bounded over the repetitions */
    for (int r = 0; r < reps; r++)
        symm_upper(m, n, 0.375, 0.5, C, A, B);

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {          // expect: Reduction in main
            total += C[i][j];
            weighted += C[i][j] * (double)(1 + (i * 2 + j) % 9);
        }
    /* the last row and the first row, whole (beyond the block where m, n are smaller) */
    double outside = 0.0;
    for (int j = 0; j < N; j++)                // expect: Reduction in main
        outside += C[M - 1][j] + C[0][N - 1 - j];

    printf("m n reps = %d %d %d\n", m, n, reps);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("border = %.10g\n", outside);
    printf("C[0][0] = %.10g  C[m/2][n/3] = %.10g  C[m-1][n-1] = %.10g\n",
           C[0][0], C[m / 2][n / 3], C[m - 1][n - 1]);
    return 0;
}
