// corpus: TRMM, float in-place B = L*B in i-k-j order with L lower triangular (A's diagonal used), flat arrays with leading dimensions (computed indices): the kernel its own function, each row of B first multiplied by its diagonal element (on the left), then the rows above it added, the rows counting down
// args: test=45 38 bench=2600 2400
#include <stdio.h>
#include <stdlib.h>

/* B <- L * B in place, L the lower triangle of the m x m matrix a (leading dimension
   lda, diagonal included; the strictly upper triangle never read), B m x n with leading
   dimension ldb, both row-major. Row i is scaled by its diagonal element, then adds
   a[i][k] times each row k above it, which the rows counting down have not updated. */
void strmm_ikj_lower(int m, int n, const float *a, int lda, float *b, int ldb)
{
    for (int i = m - 1; i >= 0; i--) {        // expect: TRMM in strmm_ikj_lower
        for (int j = 0; j < n; j++)
            b[i * ldb + j] = a[i * lda + i] * b[i * ldb + j];
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                b[i * ldb + j] += a[i * lda + k] * b[k * ldb + j];
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 250;
    if (m < 2) m = 2;
    if (n < 1) n = 1;
    int lda = m + 1, ldb = n + 5;

    float *a = malloc((size_t)m * (size_t)lda * sizeof *a);
    float *b = malloc((size_t)m * (size_t)ldb * sizeof *b);
    if (!a || !b) return 1;

    /* non-negative entries (float sums that do not cancel): the strictly lower triangle
       at most 1/(2m), the diagonal between 0.5 and 1; the strictly upper triangle and the
       padding column hold values the product must never read */
    for (int i = 0; i < m; i++)
        for (int k = 0; k < lda; k++)
            a[i * lda + k] = k < i ? (float)((i * 5 + k * 9) % 17) / (34.0f * (float)m)
                           : k == i ? 0.5f + (float)(i % 9) * 0.0625f
                           : -25.0f;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldb; j++)
            b[i * ldb + j] = j < n ? 0.25f + (float)((i * 7 + j * 13) % 23) * 0.0625f : 3.0f;

    strmm_ikj_lower(m, n, a, lda, b, ldb);

    /* B's elements (weighted by row and column) and the padding (unchanged) apart */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (long t = 0; t < (long)m * ldb; t++) {  // expect: Reduction in main
        long i = t / ldb, j = t % ldb;
        double in_b = (double)(j < n);
        total += in_b * (double)b[t];
        weighted += in_b * (double)b[t] * (double)(1 + (i + 2 * j) % 5);
        pad += (1.0 - in_b) * (double)b[t];
    }
    printf("m n = %d %d\n", m, n);
    printf("sum = %.6g\n", total);
    printf("weighted = %.6g\n", weighted);
    printf("padding = %.6g\n", pad);
    printf("b[0][0] = %.6g  b[m/2][n-1] = %.6g  b[m-1][0] = %.6g\n", (double)b[0],
           (double)b[(long)(m / 2) * ldb + n - 1], (double)b[(long)(m - 1) * ldb]);
    free(a); free(b);
    return 0;
}
