// corpus: near-miss GEMM, in-place LU factorisation without pivoting (a[i][j] -= a[i][k]*a[k][j]) of a diagonally dominant matrix
// args: test=40 bench=2000
// near-miss: the k-i-j update reads and writes the same matrix and its bounds depend on k; it is LU, not GEMM
#include <stdio.h>
#include <stdlib.h>

#define NL 2000

double a[NL][NL];

/* Doolittle LU in place on the leading n x n block: L below the diagonal (unit), U on and above. */
void lu_nopiv(int n)
{
    for (int k = 0; k < n - 1; k++) {         // expect-none: GEMM
        for (int i = k + 1; i < n; i++) {
            a[i][k] /= a[k][k];
            for (int j = k + 1; j < n; j++)   // expect: Map in lu_nopiv
                a[i][j] -= a[i][k] * a[k][j];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n < 2) n = 2;
    if (n > NL) n = NL;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = (i == j) ? (double)n : (double)((i * 3 + j * 5) % 7) / 7.0 - 0.4;

    lu_nopiv(n);

    double udiag = 0.0, lsum = 0.0;
    for (int i = 0; i < n; i++) {             // expect: Reduction in main
        udiag += a[i][i];
        lsum += a[n - 1][i];
    }
    printf("n = %d\n", n);
    printf("sum of U diagonal = %.10g\n", udiag);
    printf("last row = %.10g\n", lsum);
    printf("a[1][0] = %.10g  a[n-1][n-1] = %.10g\n", a[1][0], a[n - 1][n - 1]);
    return 0;
}
