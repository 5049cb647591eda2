// corpus: TRMM, in-place B = alpha*U*B in i-k-j order with U unit upper triangular (A's diagonal taken as one, never read), flat arrays with leading dimensions (computed indices): row i adds A[i][k] times the rows below it, then is scaled by alpha in a loop of its own
// args: test=41 35 bench=2000 1900
#include <stdio.h>
#include <stdlib.h>

/* B <- alpha * U * B in place, U the unit upper triangle of the m x m matrix a (leading
   dimension lda; its diagonal and strictly lower triangle never read), B m x n with
   leading dimension ldb, both row-major. Row i adds a[i][k] times each row k below it,
   which the rows counting up have not updated (nor scaled) yet, and is then scaled. */
void dtrmm_ikj_alpha(int m, int n, double alpha, const double *a, int lda, double *b, int ldb)
{
    for (int i = 0; i < m; i++) {              // expect: TRMM in dtrmm_ikj_alpha
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                b[i * ldb + j] += a[i * lda + k] * b[k * ldb + j];
        for (int j = 0; j < n; j++)
            b[i * ldb + j] *= alpha;
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 250;
    if (m < 2) m = 2;
    if (n < 1) n = 1;
    int lda = m + 4, ldb = n + 1;

    double *a = malloc((size_t)m * (size_t)lda * sizeof *a);
    double *b = malloc((size_t)m * (size_t)ldb * sizeof *b);
    if (!a || !b) return 1;

    /* the strictly upper triangle of either sign, at most 1/m; the diagonal, the lower
       triangle and the padding hold values the product must never read */
    unsigned int seed = 2718u;
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < lda; k++) {
            seed = seed * 22695477u + 1u;
            double r = (double)((seed >> 10) & 2047u) / 2048.0;
            a[i * lda + k] = k > i && k < m ? (r - 0.45) / (double)m
                           : k == i ? -77.0 : 500.0 + r;
        }
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldb; j++)
            b[i * ldb + j] = j < n ? 0.5 + (double)((i * 9 + j * 4) % 15) * 0.0625 : -6.0;

    dtrmm_ikj_alpha(m, n, 1.25, a, lda, b, ldb);

    /* B's elements (weighted by row and column) and the padding (unchanged) apart */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (long t = 0; t < (long)m * ldb; t++) {  // expect: Reduction in main
        long i = t / ldb, j = t % ldb;
        double in_b = (double)(j < n);
        total += in_b * b[t];
        weighted += in_b * b[t] * (double)(1 + (2 * i + j) % 11);
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
