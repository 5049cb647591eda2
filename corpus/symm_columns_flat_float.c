// corpus: SYMM with A on the right in float, C = alpha*B*A + beta*C with A symmetric (n x n) read from its lower triangle, written by the columns of C on flat arrays with leading dimensions: each column scaled by beta alone, then the k up to and including the diagonal (A[j*lda + k]) and the k after it (A[k*lda + j])
// args: test=31 26 bench=1000 900
#include <stdio.h>
#include <stdlib.h>

/* C <- alpha * B * A + beta * C: C and B are m x n (leading dimensions ldc, ldb), A is
   n x n (lda), symmetric and read only from its lower triangle (row >= column). */
void ssymm_right_lower(int m, int n, float alpha, const float *a, int lda, const float *b,
                       int ldb, float beta, float *c, int ldc)
{
    for (int j = 0; j < n; j++) {               // expect: SYMM in ssymm_right_lower
        for (int i = 0; i < m; i++)
            c[i * ldc + j] = beta * c[i * ldc + j];
        for (int k = 0; k <= j; k++) {
            float t = alpha * a[j * lda + k];
            for (int i = 0; i < m; i++)
                c[i * ldc + j] += t * b[i * ldb + k];
        }
        for (int k = j + 1; k < n; k++) {
            float t = alpha * a[k * lda + j];
            for (int i = 0; i < m; i++)
                c[i * ldc + j] += t * b[i * ldb + k];
        }
    }
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 120;
    int n = argc > 2 ? atoi(argv[2]) : 100;
    if (m < 1) m = 1;
    if (n < 1) n = 1;
    const int lda = n + 3, ldb = n + 1, ldc = n + 2;
    float *a = malloc(sizeof(float) * (size_t)n * (size_t)lda);
    float *b = malloc(sizeof(float) * (size_t)m * (size_t)ldb);
    float *c = malloc(sizeof(float) * (size_t)m * (size_t)ldc);
    if (!a || !b || !c) return 1;

    /* the lower triangle positive and at most 2/n off the diagonal; the upper triangle
       and the padding hold values the product must not read */
    for (int r = 0; r < n; r++)
        for (int q = 0; q < lda; q++)
            a[r * lda + q] = q < r ? (float)((r * 5 + q * 3) % 17 + 1) / (8.5f * (float)n)
                           : q == r ? 0.5f + (float)(r % 3) * 0.25f
                           : 1.0e6f;
    for (int i = 0; i < m; i++)
        for (int k = 0; k < ldb; k++)
            b[i * ldb + k] = k < n ? 0.125f + (float)((i * 7 + k) % 11) * 0.0625f : -1.0e6f;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldc; j++)
            c[i * ldc + j] = 0.5f + (float)((3 * i + j) % 5) * 0.25f;

    ssymm_right_lower(m, n, 0.75f, a, lda, b, ldb, 1.5f, c, ldc);

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ldc; j++) {         // expect: Reduction in main
            total += c[i * ldc + j];
            weighted += (double)c[i * ldc + j] * (double)(1 + (i + 2 * j) % 6);
        }
    printf("m n = %d %d\n", m, n);
    printf("sum = %.6e\n", total);
    printf("weighted = %.6e\n", weighted);
    printf("c[0][0] = %.6e  c[m-1][n-1] = %.6e  c[m/2][n/2] = %.6e\n", (double)c[0],
           (double)c[(m - 1) * ldc + n - 1], (double)c[(m / 2) * ldc + n / 2]);
    free(a);
    free(b);
    free(c);
    return 0;
}
