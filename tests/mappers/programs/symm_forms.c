/* Symmetric matrix products written by rows of one triangle of A (blas.idl's SYMM), for
 * the differential tests of mappers/targets/symm.py:
 *
 *   symm_forms M N SEED MODE ALPHA BETA
 *
 * Every kernel computes C = alpha A B + beta C over C (m x n, ld n), A (m x m, ld m) and
 * B (m x n, ld n), or C = alpha B A + beta C (symm_right*: A n x n, ld n), or something
 * close that is not that product; main prints the whole block holding C, A, B and a
 * spare element.
 * MODE 0: all separate;
 *      1: C overlaps A (the guard must decline);
 *      2: C overlaps B (decline). */
#include <stdio.h>
#include <stdlib.h>

/* the textbook form, flat arrays */
void symm_flat(int m, int n, double alpha, double beta, double *C, const double *A,
               const double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < i; k++) {
                C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
                t += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[i * m + i] + alpha * t;
        }
}

/* no alpha, no beta (C = A B + C), the sum's factors in the other order */
void symm_unscaled(int m, int n, double *C, const double *A, const double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < i; k++) {
                C[k * n + j] += B[i * n + j] * A[i * m + k];
                t += A[i * m + k] * B[k * n + j];
            }
            C[i * n + j] = C[i * n + j] + B[i * n + j] * A[i * m + i] + t;
        }
}

/* float */
void symm_float(int m, int n, float alpha, float beta, float *C, const float *A,
                const float *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float t = 0.0f;
            for (int k = 0; k < i; k++) {
                C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
                t += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[i * m + i] + alpha * t;
        }
}

/* the columns outermost, as the reference BLAS runs them, alpha * B[i][j] computed once
   per element */
void symm_columns_outer(int m, int n, double alpha, double beta, double *C, const double *A,
                        const double *B)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double temp1 = alpha * B[i * n + j];
            double temp2 = 0.0;
            for (int k = 0; k < i; k++) {
                C[k * n + j] += temp1 * A[i * m + k];
                temp2 += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = beta * C[i * n + j] + temp1 * A[i * m + i] + alpha * temp2;
        }
}

/* the element's three terms added in another order: the sum first, C's old value last */
void symm_terms_reordered(int m, int n, double alpha, double beta, double *C, const double *A,
                          const double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < i; k++) {
                C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
                t += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = alpha * t + alpha * B[i * n + j] * A[i * m + i] + beta * C[i * n + j];
        }
}

/* the rows counting down: a row adds to rows above it that are not finished yet (their
   beta scaling comes after), which is not the product; the original must run */
void symm_rows_down(int m, int n, double alpha, double beta, double *C, const double *A,
                    const double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < i; k++) {
                C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
                t += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[i * m + i] + alpha * t;
        }
}

/* the diagonal twice (k <= i, and again after): not the product; the original must run */
void symm_diagonal_twice(int m, int n, double alpha, double beta, double *C, const double *A,
                         const double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k <= i; k++) {
                C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
                t += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[i * m + i] + alpha * t;
        }
}

/* the rows-below variant: A's upper triangle (k > i), the rows counting down so that the
   rows below are finished when row i adds to them */
void symm_upper(int m, int n, double alpha, double beta, double *C, const double *A,
                const double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = i + 1; k < m; k++) {
                C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
                t += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[i * m + i] + alpha * t;
        }
}

/* the rows-below variant in float, the columns outermost, no scales */
void symm_upper_float(int m, int n, float *C, const float *A, const float *B)
{
    for (int j = 0; j < n; j++)
        for (int i = m - 1; i >= 0; i--) {
            float t = 0.0f;
            for (int k = i + 1; k < m; k++) {
                C[k * n + j] += B[i * n + j] * A[i * m + k];
                t += A[i * m + k] * B[k * n + j];
            }
            C[i * n + j] = C[i * n + j] + B[i * n + j] * A[i * m + i] + t;
        }
}

/* A on the right, C = alpha B A + beta C, A (n x n) read from its lower triangle: column j
   adds its part to the columns before it, which are finished by then */
void symm_right(int m, int n, double alpha, double beta, double *C, const double *A,
                const double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < j; k++) {
                C[i * n + k] += alpha * B[i * n + j] * A[j * n + k];
                t += B[i * n + k] * A[j * n + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[j * n + j] + alpha * t;
        }
}

/* A on the right in float, the columns outermost, alpha * B[i][j] once per element */
void symm_right_float(int m, int n, float alpha, float beta, float *C, const float *A,
                      const float *B)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float temp1 = alpha * B[i * n + j];
            float temp2 = 0.0f;
            for (int k = 0; k < j; k++) {
                C[i * n + k] += temp1 * A[j * n + k];
                temp2 += B[i * n + k] * A[j * n + k];
            }
            C[i * n + j] = beta * C[i * n + j] + temp1 * A[j * n + j] + alpha * temp2;
        }
}

/* A on the right from its upper triangle, the columns counting down */
void symm_right_upper(int m, int n, double alpha, double beta, double *C, const double *A,
                      const double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = n - 1; j >= 0; j--) {
            double t = 0.0;
            for (int k = j + 1; k < n; k++) {
                C[i * n + k] += alpha * B[i * n + j] * A[j * n + k];
                t += B[i * n + k] * A[j * n + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[j * n + j] + alpha * t;
        }
}

/* the upper triangle with the rows counting up: a row adds to rows below it that are not
   finished yet; the original must run (declined before run time) */
void symm_upper_rows_up(int m, int n, double alpha, double beta, double *C, const double *A,
                        const double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = i + 1; k < m; k++) {
                C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
                t += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[i * m + i] + alpha * t;
        }
}

/* the upper triangle with the diagonal twice (k >= i, and again after): not the product;
   the original must run (declined by the guard's triangle) */
void symm_upper_diagonal_twice(int m, int n, double alpha, double beta, double *C,
                               const double *A, const double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = i; k < m; k++) {
                C[k * n + j] += alpha * B[i * n + j] * A[i * m + k];
                t += B[k * n + j] * A[i * m + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[i * m + i] + alpha * t;
        }
}

/* A on the right, the sum one column short (k < j - 1): a column of the triangle left out;
   the original must run (declined by the guard's triangle) */
void symm_right_short(int m, int n, double alpha, double beta, double *C, const double *A,
                      const double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < j - 1; k++) {
                C[i * n + k] += alpha * B[i * n + j] * A[j * n + k];
                t += B[i * n + k] * A[j * n + k];
            }
            C[i * n + j] = beta * C[i * n + j] + alpha * B[i * n + j] * A[j * n + j] + alpha * t;
        }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 5;
    int n = argc > 2 ? atoi(argv[2]) : 4;
    state = argc > 3 ? (unsigned long long)atoll(argv[3]) : 1;
    int mode = argc > 4 ? atoi(argv[4]) : 0;
    double alpha = argc > 5 ? atof(argv[5]) : 1.5;
    double beta = argc > 6 ? atof(argv[6]) : -0.75;
    /* the float kernels' beta not negative: over positive data C's terms do not cancel */
    float fbeta = (float)(beta < 0 ? -beta : beta);
    /* C (m x n), A (m x m or n x n), B (m x n), spare */
    int p = m > n ? m : n;
    int total = m * n + p * p + m * n + 1;
    double *block = malloc(sizeof(double) * (size_t)total);
    float *fblock = malloc(sizeof(float) * (size_t)total);
    if (!block || !fblock) return 1;
    int at_a = m * n, at_b = at_a + p * p;
    double *C = block, *A = block + at_a, *B = block + at_b;
    float *fC = fblock, *fA = fblock + at_a, *fB = fblock + at_b;
    if (mode == 1) { C = A + 1; fC = fA + 1; }
    if (mode == 2) { C = B + 1; fC = fB + 1; }
    for (int kernel = 0; kernel < 15; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        /* positive, so that single-precision sums do not cancel below the tolerance */
        for (int t = 0; t < total; t++) fblock[t] = (float)(block[t] + 1.25);
        switch (kernel) {
        case 0: symm_flat(m, n, alpha, beta, C, A, B); break;
        case 1: symm_unscaled(m, n, C, A, B); break;
        case 2: symm_float(m, n, (float)alpha, fbeta, fC, fA, fB); break;
        case 3: symm_rows_down(m, n, alpha, beta, C, A, B); break;
        case 4: symm_diagonal_twice(m, n, alpha, beta, C, A, B); break;
        case 5: symm_columns_outer(m, n, alpha, beta, C, A, B); break;
        case 6: symm_terms_reordered(m, n, alpha, beta, C, A, B); break;
        case 7: symm_upper(m, n, alpha, beta, C, A, B); break;
        case 8: symm_upper_float(m, n, fC, fA, fB); break;
        case 9: symm_right(m, n, alpha, beta, C, A, B); break;
        case 10: symm_right_float(m, n, (float)alpha, fbeta, fC, fA, fB); break;
        case 11: symm_right_upper(m, n, alpha, beta, C, A, B); break;
        case 12: symm_upper_rows_up(m, n, alpha, beta, C, A, B); break;
        case 13: symm_upper_diagonal_twice(m, n, alpha, beta, C, A, B); break;
        case 14: symm_right_short(m, n, alpha, beta, C, A, B); break;
        }
        int single = kernel == 2 || kernel == 8 || kernel == 10;
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++)
            printf("[%d] = %.12g\n", t, single ? (double)fblock[t] : block[t]);
    }
    free(block);
    free(fblock);
    return 0;
}
