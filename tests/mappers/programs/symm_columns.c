/* Symmetric matrix products with A on the right written by the columns of C, as the
 * reference BLAS's right side is (blas.idl's SYMMColumns), for the differential tests of
 * mappers/targets/symm_columns.py:
 *
 *   symm_columns M N SEED MODE ALPHA BETA
 *
 * Every kernel computes C = alpha B A + beta C over C (m x n, ld n), A (n x n, ld n, one
 * triangle read) and B (m x n, ld n), or something close that is not that product; main
 * prints the whole block holding C, A, B and a spare element.
 * MODE 0: all separate;
 *      1: C overlaps A (the guard must decline);
 *      2: C overlaps B (decline). */
#include <stdio.h>
#include <stdlib.h>

/* the reference shape: the diagonal with the scaling, A's upper triangle */
void cols_reference(int m, int n, double alpha, double beta, double *C, const double *A,
                    const double *B)
{
    for (int j = 0; j < n; j++) {
        double f = alpha * A[j * n + j];
        for (int i = 0; i < m; i++)
            C[i * n + j] = beta * C[i * n + j] + f * B[i * n + j];
        for (int k = 0; k < j; k++) {
            f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (int k = j + 1; k < n; k++) {
            f = alpha * A[j * n + k];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
    }
}

/* float, A's lower triangle */
void cols_float(int m, int n, float alpha, float beta, float *C, const float *A, const float *B)
{
    for (int j = 0; j < n; j++) {
        float f = alpha * A[j * n + j];
        for (int i = 0; i < m; i++)
            C[i * n + j] = beta * C[i * n + j] + f * B[i * n + j];
        for (int k = 0; k < j; k++) {
            f = alpha * A[j * n + k];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (int k = j + 1; k < n; k++) {
            f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
    }
}

/* the scaling alone, the diagonal in the sum before the column (k <= j) */
void cols_diagonal_before(int m, int n, double alpha, double beta, double *C, const double *A,
                          const double *B)
{
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++)
            C[i * n + j] = beta * C[i * n + j];
        for (int k = 0; k <= j; k++) {
            double f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (int k = j + 1; k < n; k++) {
            double f = alpha * A[j * n + k];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
    }
}

/* the scaling alone, the diagonal in the sum after the column (k >= j), no alpha */
void cols_diagonal_after(int m, int n, double beta, double *C, const double *A, const double *B)
{
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++)
            C[i * n + j] *= beta;
        for (int k = 0; k < j; k++)
            for (int i = 0; i < m; i++)
                C[i * n + j] += A[k * n + j] * B[i * n + k];
        for (int k = j; k < n; k++)
            for (int i = 0; i < m; i++)
                C[i * n + j] += A[j * n + k] * B[i * n + k];
    }
}

/* no beta: C's old value plus the diagonal's term, then the sums, the later k first */
void cols_no_beta(int m, int n, double alpha, double *C, const double *A, const double *B)
{
    for (int j = 0; j < n; j++) {
        double f = alpha * A[j * n + j];
        for (int i = 0; i < m; i++)
            C[i * n + j] += f * B[i * n + j];
        for (int k = j + 1; k < n; k++) {
            f = alpha * A[j * n + k];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (int k = 0; k < j; k++) {
            f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
    }
}

/* the diagonal twice, with the scaling and in the sum (k <= j): declined by the guard */
void cols_diagonal_twice(int m, int n, double alpha, double beta, double *C, const double *A,
                         const double *B)
{
    for (int j = 0; j < n; j++) {
        double f = alpha * A[j * n + j];
        for (int i = 0; i < m; i++)
            C[i * n + j] = beta * C[i * n + j] + f * B[i * n + j];
        for (int k = 0; k <= j; k++) {
            f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (int k = j + 1; k < n; k++) {
            f = alpha * A[j * n + k];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
    }
}

/* A's column j on both sides of the diagonal, not its mirror: a general product, not a
   symmetric one (declined by the guard: A's two sums not mirrored) */
void cols_not_mirrored(int m, int n, double alpha, double beta, double *C, const double *A,
                       const double *B)
{
    for (int j = 0; j < n; j++) {
        double f = alpha * A[j * n + j];
        for (int i = 0; i < m; i++)
            C[i * n + j] = beta * C[i * n + j] + f * B[i * n + j];
        for (int k = 0; k < j; k++) {
            f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (int k = j + 1; k < n; k++) {
            f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
    }
}

/* the sum after the column one short (k < n - 1): the last k left out (declined) */
void cols_short(int m, int n, double alpha, double beta, double *C, const double *A,
                const double *B)
{
    for (int j = 0; j < n; j++) {
        double f = alpha * A[j * n + j];
        for (int i = 0; i < m; i++)
            C[i * n + j] = beta * C[i * n + j] + f * B[i * n + j];
        for (int k = 0; k < j; k++) {
            f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (int k = j + 1; k < n - 1; k++) {
            f = alpha * A[j * n + k];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
    }
}

/* the sums counted in long beside an int column: the counter widened (sign-extended) */
void cols_long_sums(int m, int n, double alpha, double beta, double *C, const double *A,
                    const double *B)
{
    for (int j = 0; j < n; j++) {
        double f = alpha * A[j * n + j];
        for (int i = 0; i < m; i++)
            C[i * n + j] = beta * C[i * n + j] + f * B[i * n + j];
        for (long k = 0; k < j; k++) {
            f = alpha * A[k * n + j];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (long k = j + 1; k < n; k++) {
            f = alpha * A[j * n + k];
            for (int i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
    }
}

/* float, the sums and their rows counted in size_t beside an int column, A's lower
   triangle, the diagonal in the sum after the column */
void cols_size_t_sums(int m, int n, float alpha, float beta, float *C, const float *A,
                      const float *B)
{
    for (int j = 0; j < n; j++) {
        for (size_t i = 0; i < (size_t)m; i++)
            C[i * n + j] *= beta;
        for (size_t k = 0; k < (size_t)j; k++)
            for (size_t i = 0; i < (size_t)m; i++)
                C[i * n + j] += alpha * A[j * n + k] * B[i * n + k];
        for (size_t k = j; k < (size_t)n; k++)
            for (size_t i = 0; i < (size_t)m; i++)
                C[i * n + j] += alpha * A[k * n + j] * B[i * n + k];
    }
}

/* unsigned columns beside sums counted in size_t: the counter widened (zero-extended) */
void cols_unsigned_column(unsigned m, unsigned n, double alpha, double beta, double *C,
                          const double *A, const double *B)
{
    for (unsigned j = 0; j < n; j++) {
        double f = alpha * A[j * n + j];
        for (unsigned i = 0; i < m; i++)
            C[i * n + j] = beta * C[i * n + j] + f * B[i * n + j];
        for (size_t k = 0; k < j; k++) {
            f = alpha * A[k * n + j];
            for (unsigned i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
        for (size_t k = j + 1; k < n; k++) {
            f = alpha * A[j * n + k];
            for (unsigned i = 0; i < m; i++)
                C[i * n + j] += f * B[i * n + k];
        }
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
    /* the float kernel's beta not negative: over positive data C's terms do not cancel */
    float fbeta = (float)(beta < 0 ? -beta : beta);
    /* C (m x n), A (n x n), B (m x n), spare */
    int total = m * n + n * n + m * n + 1;
    double *block = malloc(sizeof(double) * (size_t)total);
    float *fblock = malloc(sizeof(float) * (size_t)total);
    if (!block || !fblock) return 1;
    int at_a = m * n, at_b = at_a + n * n;
    double *C = block, *A = block + at_a, *B = block + at_b;
    float *fC = fblock, *fA = fblock + at_a, *fB = fblock + at_b;
    if (mode == 1) { C = A + 1; fC = fA + 1; }
    if (mode == 2) { C = B + 1; fC = fB + 1; }
    for (int kernel = 0; kernel < 11; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        /* positive, so that single-precision sums do not cancel below the tolerance */
        for (int t = 0; t < total; t++) fblock[t] = (float)(block[t] + 1.25);
        switch (kernel) {
        case 0: cols_reference(m, n, alpha, beta, C, A, B); break;
        case 1: cols_float(m, n, (float)alpha, fbeta, fC, fA, fB); break;
        case 2: cols_diagonal_before(m, n, alpha, beta, C, A, B); break;
        case 3: cols_diagonal_after(m, n, beta, C, A, B); break;
        case 4: cols_no_beta(m, n, alpha, C, A, B); break;
        case 5: cols_diagonal_twice(m, n, alpha, beta, C, A, B); break;
        case 6: cols_not_mirrored(m, n, alpha, beta, C, A, B); break;
        case 7: cols_short(m, n, alpha, beta, C, A, B); break;
        case 8: cols_long_sums(m, n, alpha, beta, C, A, B); break;
        case 9: cols_size_t_sums(m, n, (float)alpha, fbeta, fC, fA, fB); break;
        case 10: cols_unsigned_column((unsigned)m, (unsigned)n, alpha, beta, C, A, B); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++)
            printf("[%d] = %.12g\n", t, kernel == 1 || kernel == 9 ? (double)fblock[t] : block[t]);
    }
    free(block);
    free(fblock);
    return 0;
}
