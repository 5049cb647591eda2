// direct: trmm_ikj_flat.c: dtrmm_ikj_upper's loop nest as a cblas_dtrmm call (Left, Upper, NoTrans, Unit)
// args: test=40 30 bench=2400 2400
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* B <- U * B in place, U the unit upper triangle of the m x m matrix a (leading dimension
   lda): the diagonal taken as one and not read, the strictly lower triangle never read.
   B is m x n with leading dimension ldb, both row-major. Row i adds the rows below it,
   which the rows counting up have not updated yet. */
void dtrmm_ikj_upper(int m, int n, const double *a, int lda, double *b, int ldb)
{
    if (m > 0 && n > 0)
        cblas_dtrmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasUnit, m, n,
                    1.0, a, lda, b, ldb);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 250;
    if (m < 2) m = 2;
    if (n < 1) n = 1;
    int lda = m + 5, ldb = n + 3;

    double *a = malloc((size_t)m * (size_t)lda * sizeof *a);
    double *b = malloc((size_t)m * (size_t)ldb * sizeof *b);
    if (!a || !b) return 1;

    /* the strictly upper triangle holds small positive entries (at most 1/m, so that a
       row of U sums to less than 2); the diagonal, the lower triangle and the padding
       columns hold values the product must never read */
    unsigned int seed = 777u;
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < lda; k++) {
            seed = seed * 1103515245u + 12345u;
            double r = (double)((seed >> 16) & 1023u) / 1024.0;
            if (k > i && k < m)
                a[i * lda + k] = (0.25 + 0.75 * r) / (double)m;
            else if (k == i)
                a[i * lda + k] = 40.0;
            else if (k < i)
                a[i * lda + k] = -5.0 - r;
            else
                a[i * lda + k] = 900.0;
        }
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldb; j++)
            b[i * ldb + j] = j < n ? 0.5 + (double)((i * 5 + j * 3) % 13) * 0.0625 : -7.0;

    dtrmm_ikj_upper(m, n, a, lda, b, ldb);

    /* B's columns (weighted, by row and column) and the padding (unchanged) separately */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (long t = 0; t < (long)m * ldb; t++) {
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
