// corpus: TRMM, float in-place B = L*B in i-k-j order with L unit lower triangular, float ** row tables into one block, the rows counting down: row i adds A[i][k] times each row above it, not yet updated
// args: test=36 28 bench=2800 4800
#include <stdio.h>
#include <stdlib.h>

/* B <- L * B in place, L the unit lower triangle of the m x m matrix A (the diagonal taken
   as one and not read, the strictly upper triangle never read), B m x n. Row i adds the
   rows above it, which the rows counting down have not updated yet. */
void strmm_ikj_lower(int m, int n, float **A, float **B)
{
    for (int i = m - 1; i >= 0; i--) {         // expect: TRMM in strmm_ikj_lower
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i][j] += A[i][k] * B[k][j];
    }
}

/* rows x cols matrix as a table of row pointers into one block, rows ld = cols + 2 apart;
   the 2 padding entries of each row hold `pad` */
float **alloc_rows(int rows, int cols, float pad)
{
    int ld = cols + 2;
    float **r = malloc((size_t)rows * sizeof *r);
    float *block = malloc((size_t)rows * (size_t)ld * sizeof *block);
    if (!r || !block) exit(1);
    for (int i = 0; i < rows; i++) {
        r[i] = block + (size_t)i * (size_t)ld;
        for (int c = cols; c < ld; c++)
            r[i][c] = pad;
    }
    return r;
}

void free_rows(float **r)
{
    free(r[0]);
    free(r);
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 300;
    int n = argc > 2 ? atoi(argv[2]) : 240;
    if (m < 2) m = 2;
    if (n < 1) n = 1;

    float **A = alloc_rows(m, m, 300.0f), **B = alloc_rows(m, n, -3.0f);

    /* a small integer LCG: the strictly lower triangle in [0.2/m, 1/m] (a row of L sums to
       less than 2), the diagonal and the upper triangle values the product must not read */
    unsigned int seed = 4242u;
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < m; k++) {
            seed = seed * 1664525u + 1013904223u;
            float r = (float)(seed >> 22) / 1024.0f;
            A[i][k] = k < i ? (0.2f + 0.8f * r) / (float)m : k == i ? 20.0f : -6.0f - r;
        }
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 0.5f + (float)((i * 3 + j * 11) % 17) * 0.0625f;

    strmm_ikj_lower(m, n, A, B);

    /* B weighted by row and column, a column, and the padding (unchanged) */
    double total = 0.0, weighted = 0.0, pad = 0.0;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n + 2; j++) {       // expect: Reduction in main
            double in_b = (double)(j < n);
            total += in_b * B[i][j];
            weighted += in_b * B[i][j] * (double)(1 + (5 * i + j) % 8);
            pad += (1.0 - in_b) * B[i][j];
        }
    }
    double last_col = 0.0;
    for (int i = 0; i < m; i++)                 // expect: Reduction in main
        last_col += B[i][n - 1];

    printf("m n = %d %d\n", m, n);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("last column = %.10g\n", last_col);
    printf("padding = %.10g\n", pad);
    printf("B[0][0] = %.10g  B[m/2][n/2] = %.10g  B[m-1][n-1] = %.10g\n",
           (double)B[0][0], (double)B[m / 2][n / 2], (double)B[m - 1][n - 1]);
    free_rows(A); free_rows(B);
    return 0;
}
