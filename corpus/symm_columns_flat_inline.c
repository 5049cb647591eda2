// corpus: SYMM with A on the right, C = B*A + beta*C (no alpha) with A symmetric (n x n) read from its upper triangle, written by the columns of C on flat arrays in main: each column scaled by beta, then the k before the diagonal (a[k*n + j]) and the k from the diagonal on (a[j*n + k])
// args: test=24 19 bench=950 850
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 120;
    int n = argc > 2 ? atoi(argv[2]) : 100;
    if (m < 1) m = 1;
    if (n < 1) n = 1;
    double *a = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)m * (size_t)n);
    double *c = malloc(sizeof(double) * (size_t)m * (size_t)n);
    if (!a || !b || !c) return 1;
    const double beta = argc > 3 ? atof(argv[3]) : 0.25;

    /* the upper triangle (row <= column) at most 1/n off the diagonal; the lower triangle
       holds a value the product must not read */
    for (int r = 0; r < n; r++)
        for (int q = 0; q < n; q++)
            a[r * n + q] = q > r ? (double)((r + q * 7) % 19 + 1) / (19.0 * n)
                         : q == r ? 0.25 + (double)(r % 6) * 0.125
                         : 4.0e3;
    for (int i = 0; i < m; i++)
        for (int k = 0; k < n; k++)
            b[i * n + k] = (double)((i * 5 + k * 9) % 15) * 0.1 - 0.7;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            c[i * n + j] = (double)((i * 2 + j) % 7) * 0.3 - 0.9;

    /* c <- b * a + beta * c, a symmetric */
    for (int j = 0; j < n; j++) {               // expect: SYMM in main
        for (int i = 0; i < m; i++)
            c[i * n + j] *= beta;
        for (int k = 0; k < j; k++)
            for (int i = 0; i < m; i++)
                c[i * n + j] += a[k * n + j] * b[i * n + k];
        for (int k = j; k < n; k++)
            for (int i = 0; i < m; i++)
                c[i * n + j] += a[j * n + k] * b[i * n + k];
    }

    double total = 0.0, squares = 0.0;
    for (int t = 0; t < m * n; t++) {           // expect: Reduction in main
        total += c[t];
        squares += c[t] * c[t];
    }
    printf("m n = %d %d\n", m, n);
    printf("sum = %.10g\n", total);
    printf("squares = %.10g\n", squares);
    printf("c[0][0] = %.10g  c[m-1][n-1] = %.10g  c[m/3][n/2] = %.10g\n", c[0],
           c[(m - 1) * n + n - 1], c[(m / 3) * n + n / 2]);
    free(a);
    free(b);
    free(c);
    return 0;
}
