// direct: gemm_alphabeta_macro.c: dgemm_nn's loop nest as a cblas_dgemm call
// args: test=36 bench=1200
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define A(i, j) a[(i) * lda + (j)]
#define B(i, j) b[(i) * ldb + (j)]
#define C(i, j) c[(i) * ldc + (j)]

/* C(0:m,0:n) = alpha * A(0:m,0:k) * B(0:k,0:n) + beta * C, row-major with leading dimensions. */
void dgemm_nn(long m, long n, long k, double alpha,
              const double *a, long lda, const double *b, long ldb,
              double beta, double *c, long ldc)
{
    if (m > 0 && n > 0)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k,
                    alpha, a, lda, b, ldb, beta, c, ldc);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200;
    if (n < 4) n = 4;
    long m = n, k = n + 3;
    long lda = k + 5, ldb = n + 7, ldc = n + 2;   /* parents are wider than the blocks */
    long rows = m + 4;

    double *pa = malloc((size_t)(rows * lda) * sizeof *pa);
    double *pb = malloc((size_t)((k + 4) * ldb) * sizeof *pb);
    double *pc = malloc((size_t)(rows * ldc) * sizeof *pc);
    if (!pa || !pb || !pc) return 1;

    for (long i = 0; i < rows * lda; i++) pa[i] = (double)(i % 19) / 19.0 - 0.5;
    for (long i = 0; i < (k + 4) * ldb; i++) pb[i] = (double)((i * 3) % 23) / 23.0 - 0.4;
    for (long i = 0; i < rows * ldc; i++) pc[i] = (double)(i % 7) - 3.0;

    /* operate on the blocks starting at row 2, column 1 of each parent */
    const double *a = pa + 2 * lda + 1;
    const double *b = pb + 2 * ldb + 1;
    double *c = pc + 2 * ldc + 1;
    dgemm_nn(m, n, k, 1.5, a, lda, b, ldb, -0.5, c, ldc);

    /* whole parent of C: the untouched border must be unchanged too */
    double sum = 0.0, wsum = 0.0;
    for (long t = 0; t < rows * ldc; t++) {
        sum += pc[t];
        wsum += pc[t] * (double)(t % 13);
    }
    printf("m n k = %ld %ld %ld\n", m, n, k);
    printf("sum = %.10g\n", sum);
    printf("wsum = %.10g\n", wsum);
    printf("C(3,4) = %.10g\n", c[3 * ldc + 4]);
    free(pa); free(pb); free(pc);
    return 0;
}
