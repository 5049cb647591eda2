// direct: symm_upper_flat_float_inline.c: ssymm_upper's loop nest as a cblas_ssymm call (RowMajor, Left, Upper, the padded leading dimensions lda, ldb, ldc)
// args: test=29 21 3 bench=880 800 5
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

/* C <- alpha * A * B + beta * C, C and B m x n (leading dimensions ldc and ldb), A the
   m x m symmetric matrix kept in the upper triangle of a (leading dimension lda): the
   strictly lower triangle and the padding columns of every matrix are never read. */
static void ssymm_upper(int m, int n, float alpha, const float *a, int lda, const float *b,
                        int ldb, float beta, float *c, int ldc)
{
    if (m > 0 && n > 0)
        cblas_ssymm(CblasRowMajor, CblasLeft, CblasUpper, m, n, alpha, a, lda, b, ldb, beta, c,
                    ldc);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 200;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    if (m < 2) m = 2;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;
    int lda = m + 3, ldb = n + 6, ldc = n + 2;

    float *a = malloc((size_t)m * (size_t)lda * sizeof *a);
    float *b = malloc((size_t)m * (size_t)ldb * sizeof *b);
    float *c = malloc((size_t)m * (size_t)ldc * sizeof *c);
    if (!a || !b || !c) return 1;

    /* the upper triangle from a small LCG, positive and at most 1/m off the diagonal, the
       diagonal 0.625; the strictly lower triangle and the padding hold values that would
       show if they were read */
    unsigned int seed = 1357u;
    for (int i = 0; i < m; i++)
        for (int k = 0; k < lda; k++) {
            seed = seed * 1103515245u + 12345u;
            float r = (float)((seed >> 16) & 255u) / 256.0f;
            a[i * lda + k] = k >= m ? 1.0e6f
                           : k > i ? (0.125f + 0.875f * r) / (float)m
                           : k == i ? 0.625f : -25.0f;
        }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldb; j++)
            b[i * ldb + j] = j < n ? 0.5f + (float)((i * 5 + j * 3) % 11) * 0.0625f : -9.0f;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldc; j++)
            c[i * ldc + j] = j < n ? 1.0f + (float)((i * 2 + j) % 7) * 0.125f : 2.5f;

    /* C <- 0.5 A B + 0.25 C, then C halved: the values stay between 0.1 and 4 */
    double trace = 0.0;
    for (int r = 0; r < reps; r++) {
        ssymm_upper(m, n, 0.5f, a, lda, b, ldb, 0.25f, c, ldc);
        trace += (double)c[(long)(r % m) * ldc + r % n];
        for (long t = 0; t < (long)m * ldc; t++)
            c[t] *= 0.5f;
    }

    /* C's columns (weighted by position) and the padding (unchanged but for the halving)
       separately */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (long t = 0; t < (long)m * ldc; t++) {
        long i = t / ldc, j = t % ldc;
        double in_c = (double)(j < n);
        total += in_c * (double)c[t];
        weighted += in_c * (double)c[t] * (double)(1 + (i * 3 + j) % 8);
        pad += (1.0 - in_c) * (double)c[t];
    }
    printf("m n reps = %d %d %d\n", m, n, reps);
    printf("trace = %.6e\n", trace);
    printf("sum = %.6e\n", total);
    printf("weighted = %.6e\n", weighted);
    printf("padding = %.6e\n", pad);
    printf("c[0][0] = %.6e  c[m/2][n-1] = %.6e  c[m-1][0] = %.6e\n",
           (double)c[0], (double)c[(long)(m / 2) * ldc + n - 1], (double)c[(long)(m - 1) * ldc]);
    free(a); free(b); free(c);
    return 0;
}
