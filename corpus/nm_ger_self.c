// corpus: near-miss GER, rank-1 updates that read the matrix they update: x is a row of A itself, or the update adds a product of A's own entries
// args: test=40 bench=1500
// near-miss: row_of_a's x is A's row p, which the update changes while it runs (rows after p read the new values); outer_self adds A[i][0]*A[0][j], entries of A the loop writes: neither is A + x y^T over the A before the loop
#include <stdio.h>
#include <stdlib.h>

/* Gaussian-elimination-like: A[i][j] -= l[i] * A[p][j] for every row, row p included. */
void row_of_a(int n, int p, double *A, const double *l)
{
    for (int i = 0; i < n; i++)                 // expect-none: GER
        for (int j = 0; j < n; j++)
            A[i * n + j] -= l[i] * A[p * n + j];
}

/* A[i][j] += A[i][0] * A[0][j]: the factors are A's first column and row. */
void outer_self(int n, double *A)
{
    for (int i = 0; i < n; i++)                 // expect-none: GER
        for (int j = 0; j < n; j++)
            A[i * n + j] += A[i * n] * A[j];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    if (n < 4) n = 4;
    double *A = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *l = malloc(sizeof(double) * (size_t)n);
    if (!A || !l) return 1;
    for (int t = 0; t < n * n; t++) A[t] = (double)((t * 13) % 37) / 37.0 - 0.5;
    for (int i = 0; i < n; i++) l[i] = (double)((i * 3) % 11) / 110.0;

    row_of_a(n, n / 3, A, l);
    outer_self(n, A);

    double total = 0.0;
    for (int t = 0; t < n * n; t++)             // expect: Reduction in main
        total += A[t] * (double)(t % 7);
    printf("n = %d\n", n);
    printf("total = %.10g\n", total);
    printf("A[n-1][n-1] = %.10g\n", A[n * n - 1]);
    free(A); free(l);
    return 0;
}
