// direct: trmm_unsigned_flat.c: trmm_upper_ref's nest as one cblas_dtrmm call (Left, Upper, NoTrans, NonUnit), alpha read once from its address
// args: test=29 23 bench=1500 1500
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* B <- alpha * U * B in place, U the upper triangle of the m x m matrix a (leading
   dimension lda, diagonal included), B m x n (leading dimension ldb). alpha is passed by
   address as a Fortran-style reference interface does; b may alias it as far as the
   compiler knows, so *alpha is read again for every element. Row i reads the rows below
   it, which the rows counting up have not updated yet. */
void trmm_upper_ref(unsigned m, unsigned n, const double *alpha, const double *a, unsigned lda,
                    double *b, unsigned ldb)
{
    if (m > 0 && n > 0)
        cblas_dtrmm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit,
                    (int)m, (int)n, *alpha, a, (int)lda, b, (int)ldb);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 200;
    if (m < 2) m = 2;
    if (n < 1) n = 1;
    unsigned lda = (unsigned)m + 3, ldb = (unsigned)n + 1;

    double *a = malloc(sizeof(double) * (size_t)m * lda);
    double *b = malloc(sizeof(double) * (size_t)m * ldb);
    if (!a || !b) return 1;

    /* the diagonal 1.25 to 1.75, the strictly upper triangle at most 1/m, the strictly
       lower triangle and the padding a value the product must not read */
    for (int i = 0; i < m; i++)
        for (unsigned k = 0; k < lda; k++)
            a[i * lda + k] = k >= (unsigned)m ? 7.0e3
                           : (int)k > i ? (double)((i * 7 + (int)k * 3) % 13 + 1) / (13.0 * m)
                           : (int)k == i ? 1.25 + (double)(i % 3) * 0.25
                           : -3.0e3;
    for (int i = 0; i < m; i++)
        for (unsigned j = 0; j < ldb; j++)
            b[i * ldb + j] = j >= (unsigned)n ? -9.0e3 : 0.2 + (double)((i * 3 + (int)j * 7) % 11) * 0.05;

    const double alpha = 0.4;
    trmm_upper_ref((unsigned)m, (unsigned)n, &alpha, a, lda, b, ldb);

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            total += b[i * ldb + j];
            weighted += b[i * ldb + j] * (double)(1 + (i + 2 * j) % 7);
        }
    double pad = 0.0;
    for (int i = 0; i < m; i++)
        pad += b[i * ldb + n];

    printf("m n = %d %d\n", m, n);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("padding = %.10g\n", pad);
    printf("b[0][0] = %.10g  b[m/2][n/3] = %.10g  b[m-1][n-1] = %.10g\n",
           b[0], b[(m / 2) * ldb + n / 3], b[(m - 1) * ldb + n - 1]);
    free(a); free(b);
    return 0;
}
