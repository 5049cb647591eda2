// corpus: TRMM, in-place B = alpha*U*B with the columns outermost, U unit upper triangular (A's diagonal taken as one, never read), flat arrays with leading dimensions (computed indices): each column of B is its own product, its rows counting up, the sum in a local from B's own element
// args: test=37 29 bench=1600 1500
#include <stdio.h>
#include <stdlib.h>

/* B <- alpha * U * B in place, U the unit upper triangle of the m x m matrix a (leading
   dimension lda; its diagonal and strictly lower triangle never read), B m x n with
   leading dimension ldb, both row-major. Column by column: row i of a column adds the
   rows below it in that column, which the rows counting up have not updated yet; the
   last row adds nothing. */
void dtrmm_cols_unit(int m, int n, double alpha, const double *a, int lda, double *b, int ldb)
{
    for (int j = 0; j < n; j++) {              // expect: TRMM in dtrmm_cols_unit
        for (int i = 0; i < m; i++) {
            double s = b[i * ldb + j];
            for (int k = i + 1; k < m; k++)
                s += a[i * lda + k] * b[k * ldb + j];
            b[i * ldb + j] = alpha * s;
        }
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 250;
    if (m < 2) m = 2;
    if (n < 1) n = 1;
    int lda = m + 3, ldb = n + 2;

    double *a = malloc((size_t)m * (size_t)lda * sizeof *a);
    double *b = malloc((size_t)m * (size_t)ldb * sizeof *b);
    if (!a || !b) return 1;

    /* the strictly upper triangle holds entries of either sign, at most 1/m; the
       diagonal, the lower triangle and the padding hold values the product must never
       read */
    unsigned int seed = 4242u;
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < lda; k++) {
            seed = seed * 1664525u + 1013904223u;
            double r = (double)((seed >> 12) & 4095u) / 4096.0;
            if (k > i && k < m)
                a[i * lda + k] = (r - 0.375) / (double)m;
            else if (k == i)
                a[i * lda + k] = 55.0;
            else
                a[i * lda + k] = -300.0 - r;
        }
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldb; j++)
            b[i * ldb + j] = j < n ? 1.0 + (double)((i * 5 + j * 3) % 13) * 0.05 : 9.0;

    dtrmm_cols_unit(m, n, 0.75, a, lda, b, ldb);

    /* B's elements (weighted by row and column) and the padding (unchanged) apart */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (long t = 0; t < (long)m * ldb; t++) {  // expect: Reduction in main
        long i = t / ldb, j = t % ldb;
        double in_b = (double)(j < n);
        total += in_b * b[t];
        weighted += in_b * b[t] * (double)(1 + (i * 3 + j) % 7);
        pad += (1.0 - in_b) * b[t];
    }
    printf("m n = %d %d\n", m, n);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("padding = %.10g\n", pad);
    printf("b[0][0] = %.10g  b[m/2][n-1] = %.10g  b[m-1][0] = %.10g\n",
           b[0], b[(long)(m / 2) * ldb + n - 1], b[(long)(m - 1) * ldb]);
    free(a); free(b);
    return 0;
}
