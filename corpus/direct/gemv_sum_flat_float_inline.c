// direct: gemv_sum_flat_float_inline.c: gesummv_f's nest as two cblas_sgemv calls (y = alpha A u: NoTrans, beta 0; then y = beta B v + y: NoTrans, beta 1; lda the padded row length)
// args: test=2 bench=1000
#include <stdio.h>
#include <stdlib.h>
#include <cblas.h>

#define NR 1800
#define NC 1500
#define LDA (NC + 8)

/* y = alpha A u + beta B v over the n x m matrices A and B, each stored by rows lda apart
   (the columns m .. lda-1 of each row are not part of the matrix). */
static void gesummv_f(int n, int m, int lda, float alpha, float beta, const float *A,
                      const float *B, const float *u, const float *v, float *y)
{
    if (n > 0 && m > 0) {
        cblas_sgemv(CblasRowMajor, CblasNoTrans, n, m, alpha, A, lda, u, 1, 0.0f, y, 1);
        cblas_sgemv(CblasRowMajor, CblasNoTrans, n, m, beta, B, lda, v, 1, 1.0f, y, 1);
    }
}

int main(int argc, char **argv)
{
    /* the sizes are fixed at compile time; the argument repeats the product */
    int reps = argc > 1 ? atoi(argv[1]) : 10;
    if (reps < 1) reps = 1;

    float *A = malloc((size_t)NR * LDA * sizeof *A);
    float *B = malloc((size_t)NR * LDA * sizeof *B);
    float *u = malloc((size_t)NC * sizeof *u);
    float *v = malloc((size_t)NC * sizeof *v);
    float *y = malloc((size_t)NR * sizeof *y);
    if (!A || !B || !u || !v || !y) return 1;

    /* multiples of 1/32 and 1/8, all positive: every partial sum is exact in float, so
       the result does not depend on the order of the additions. The padding holds a
       huge value that would show if it were read. */
    for (int i = 0; i < NR; i++) {
        for (int j = 0; j < NC; j++) {
            A[i * LDA + j] = (float)(8 + (i * 5 + j * 3) % 41) / 32.0f;
            B[i * LDA + j] = (float)(4 + (i * 11 + j * 7) % 37) / 32.0f;
        }
        for (int j = NC; j < LDA; j++) {
            A[i * LDA + j] = 1.0e30f;
            B[i * LDA + j] = 1.0e30f;
        }
    }
    for (int j = 0; j < NC; j++)
        u[j] = (float)(j % 8 + 1) / 8.0f;

    double total = 0.0;
    for (int rep = 0; rep < reps; rep++) {
        for (int j = 0; j < NC; j++)
            v[j] = (float)((j + rep) % 8 + 1) / 8.0f;
        gesummv_f(NR, NC, LDA, 0.5f, 1.25f, A, B, u, v, y);
        for (int i = 0; i < NR; i++)
            total += (double)y[i];
    }

    double sy = 0.0, wy = 0.0;
    for (int i = 0; i < NR; i++) {
        sy += (double)y[i];
        wy += (double)y[i] * (double)(i % 7 + 1);
    }
    printf("nr nc lda = %d %d %d reps = %d\n", NR, NC, LDA, reps);
    printf("total = %.10g\n", total / reps);
    printf("y sum = %.10g weighted = %.10g\n", sy, wy);
    printf("y[0] = %.10g y[nr/2] = %.10g y[nr-1] = %.10g\n",
           (double)y[0], (double)y[NR / 2], (double)y[NR - 1]);
    free(A); free(B); free(u); free(v); free(y);
    return 0;
}
