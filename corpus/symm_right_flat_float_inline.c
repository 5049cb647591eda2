// corpus: SYMM with A on the right, C = alpha*B*A + beta*C in float, A symmetric (n x n) read from its lower triangle, the columns outermost, alpha*B[i][j] computed once per element, flat arrays with computed indices and padded leading dimensions, a static kernel that clang inlines into main, C rescaled between repetitions
// args: test=25 31 3 bench=800 880 5
#include <stdio.h>
#include <stdlib.h>

/* C <- alpha * B * A + beta * C, C and B m x n (leading dimensions ldc and ldb), A the
   n x n symmetric matrix kept in the lower triangle of a (leading dimension lda): the
   strictly upper triangle and the padding columns of every matrix are never read. */
static void ssymm_right(int m, int n, float alpha, const float *a, int lda, const float *b,
                        int ldb, float beta, float *c, int ldc)
{
    for (int j = 0; j < n; j++) {              // expect: SYMM in ssymm_right
        for (int i = 0; i < m; i++) {
            float temp1 = alpha * b[i * ldb + j];
            float temp2 = 0.0f;
            for (int k = 0; k < j; k++) {
                c[i * ldc + k] += temp1 * a[j * lda + k];
                temp2 += b[i * ldb + k] * a[j * lda + k];
            }
            c[i * ldc + j] = beta * c[i * ldc + j] + temp1 * a[j * lda + j] + alpha * temp2;
        }
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 200;
    int n = argc > 2 ? atoi(argv[2]) : 300;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    if (m < 1) m = 1;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;
    int lda = n + 4, ldb = n + 1, ldc = n + 5;

    float *a = malloc((size_t)n * (size_t)lda * sizeof *a);
    float *b = malloc((size_t)m * (size_t)ldb * sizeof *b);
    float *c = malloc((size_t)m * (size_t)ldc * sizeof *c);
    if (!a || !b || !c) return 1;

    /* the lower triangle from a small LCG, positive and at most 1/n off the diagonal, the
       diagonal 0.75; the strictly upper triangle and the padding hold values that would
       show if they were read */
    unsigned int seed = 9753u;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < lda; k++) {
            seed = seed * 1103515245u + 12345u;
            float r = (float)((seed >> 16) & 255u) / 256.0f;
            a[j * lda + k] = k < j ? (0.125f + 0.875f * r) / (float)n
                           : k == j ? 0.75f
                           : k < n ? -15.0f : 1.0e6f;
        }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldb; j++)
            b[i * ldb + j] = j < n ? 0.5f + (float)((i * 7 + j * 2) % 13) * 0.0625f : -6.0f;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldc; j++)
            c[i * ldc + j] = j < n ? 1.0f + (float)((i + j * 2) % 9) * 0.125f : 3.5f;

    /* C <- 0.5 B A + 0.25 C, then C halved: the values stay between 0.1 and 4 */
    double trace = 0.0;
    for (int r = 0; r < reps; r++) {
        ssymm_right(m, n, 0.5f, a, lda, b, ldb, 0.25f, c, ldc);
        trace += (double)c[(long)(r % m) * ldc + r % n];
        for (long t = 0; t < (long)m * ldc; t++)   // expect: Map in main
            c[t] *= 0.5f;
    }

    /* C's columns (weighted by position) and the padding (unchanged but for the halving)
       separately */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (long t = 0; t < (long)m * ldc; t++) { // expect: Reduction in main
        long i = t / ldc, j = t % ldc;
        double in_c = (double)(j < n);
        total += in_c * (double)c[t];
        weighted += in_c * (double)c[t] * (double)(1 + (i * 4 + j) % 9);
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
