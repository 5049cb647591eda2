/* In-place triangular products (blas.idl's TRMM) for the differential tests of
 * mappers/targets/trmm.py:
 *
 *   trmm_forms M N SEED MODE
 *
 * Every kernel updates B (m x n, ld n) in place from A (m x m, ld m); main prints the
 * whole block holding B, A and a spare element, so a call writing outside B would show.
 * MODE 0: B and A separate (each TRMM kernel one call);
 *      1: A is B itself (the guard must decline);
 *      2: A is B shifted by one element (decline);
 *      3: alpha is 0 (the kernels scaling by alpha must decline);
 *      4: an infinity in B (every call must decline: BLAS multiplies the zeros outside
 *         the triangle by it, NaN where the loop keeps numbers);
 *      5: alpha is infinite (the kernels scaling by alpha must decline);
 *      6: alpha is 1e308 (the kernels scaling by alpha must decline: OpenBLAS scales B by
 *         it first, which may overflow where the loop's order does not);
 *      7: the alpha read through a pointer is B's last element (the kernels reading it
 *         so must decline: the loop writes it). */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>

/* unit upper from A^T, the sum kept in B, then scaled: B <- alpha (I + L^T) B */
void unit_trans_stored(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            for (int k = i + 1; k < m; k++)
                B[i * n + j] += A[k * m + i] * B[k * n + j];
            B[i * n + j] = alpha * B[i * n + j];
        }
}

/* unit upper, the sum kept in B, not scaled */
void unit_upper_stored(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            for (int k = i + 1; k < m; k++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
}

/* unit lower, the rows counting down, the sum in a register from B's own element */
void unit_lower_down(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int j = 0; j < n; j++) {
            double s = B[i * n + j];
            for (int k = 0; k < i; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = s * alpha;
        }
}

/* non-unit upper, the sum in a register from zero */
void nonunit_upper(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = i; k < m; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = alpha * s;
        }
}

/* non-unit lower from A^T, the rows counting down, alpha on a factor */
void nonunit_lower_trans_down(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k <= i; k++)
                s += alpha * A[k * m + i] * B[k * n + j];
            B[i * n + j] = s;
        }
}

/* the rows counting up while the sum reads the rows above, already updated: a
   recurrence, no TRMM (must not be replaced) */
void forward_recurrence(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = B[i * n + j];
            for (int k = 0; k < i; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = 0.5 * s;
        }
}

/* a sum from zero that leaves the diagonal out: a strictly triangular product (the
   guard must decline) */
void strict_from_zero(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = i + 1; k < m; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = s;
        }
}

/* alpha on the products but not on B's own element: B + alpha * N B (must decline) */
void unit_alpha_on_products(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = B[i * n + j];
            for (int k = i + 1; k < m; k++)
                s += alpha * A[i * m + k] * B[k * n + j];
            B[i * n + j] = s;
        }
}

/* the sum stops a row short of the last: T is not square over the rows (the guard must
   decline) */
void unit_upper_short(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            for (int k = i + 1; k < m - 1; k++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
}

/* the sum skipped on row 1 by a test of its own: it disagrees with the loop's count
   there (the guard must decline) */
void lower_skips_row_one(int m, int n, const double *A, double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int j = 0; j < n; j++) {
            double s = B[i * n + j];
            if (i > 1)
                for (int k = 0; k < i; k++)
                    s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = s;
        }
}

/* B read one column to the right of the element written: a shifted B, no TRMM (the
   guard must decline; B[m - 1][n] is the spare element after B) */
void shifted_column(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            for (int k = i + 1; k < m; k++)
                B[i * n + j] += A[i * m + k] * B[k * n + j + 1];
}

/* the sum (a do-while, so that this test alone can skip it) skipped on row 2 alone
   (`i != 2`, true on every row but one): the guard must check that row too and decline */
void unit_skips_row_two(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            if (i != 2) {
                int k = i;
                do {
                    s += A[i * m + k] * B[k * n + j];
                    k++;
                } while (k < m);
            }
            B[i * n + j] = s;
        }
}

/* non-unit upper, unsigned counters, the sum in a register from zero */
void unsigned_upper(unsigned m, unsigned n, double alpha, const double *A, double *B)
{
    for (unsigned i = 0; i < m; i++)
        for (unsigned j = 0; j < n; j++) {
            double s = 0.0;
            for (unsigned k = i; k < m; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = alpha * s;
        }
}

/* unit upper, size_t counters, the sum kept in B, then scaled */
void sizet_unit_stored(size_t m, size_t n, double alpha, const double *A, double *B)
{
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            for (size_t k = i + 1; k < m; k++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
            B[i * n + j] = alpha * B[i * n + j];
        }
}

/* non-unit upper, alpha read through a pointer B may alias (loaded on every row) */
void alpha_pointer(int m, int n, const double *alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = i; k < m; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = *alpha * s;
        }
}

/* unit lower, the rows counting down, the sum kept in B, then scaled by *alpha */
void alpha_pointer_stored(int m, int n, const double *alpha, const double *A, double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < i; k++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
            B[i * n + j] = *alpha * B[i * n + j];
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
    double alpha = mode == 3 ? 0.0 : mode == 5 ? 1.0 / 0.0 : mode == 6 ? 1e308 : 0.75;
    int total = m * n + m * m + 1;
    double *block = malloc(sizeof(double) * (size_t)(total > 0 ? total : 1));
    if (!block) return 1;
    double *B = block, *A = block + m * n + 1;
    const double *read = mode == 1 ? B : mode == 2 ? B + 1 : A;
    const double *alpha_read = mode == 7 && m * n > 0 ? B + m * n - 1 : &alpha;
    for (int kernel = 0; kernel < 16; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        for (int t = 0; t < m * m; t++) A[t] *= 1.0 / (m + 1); /* keep sums modest */
        if (mode == 4 && m * n > 0) B[0] = 1.0 / 0.0; /* an infinity in B's first row */
        switch (kernel) {
        case 0: unit_trans_stored(m, n, alpha, read, B); break;
        case 1: unit_upper_stored(m, n, read, B); break;
        case 2: unit_lower_down(m, n, alpha, read, B); break;
        case 3: nonunit_upper(m, n, alpha, read, B); break;
        case 4: nonunit_lower_trans_down(m, n, alpha, read, B); break;
        case 5: forward_recurrence(m, n, read, B); break;
        case 6: strict_from_zero(m, n, read, B); break;
        case 7: unit_alpha_on_products(m, n, alpha, read, B); break;
        case 8: unit_upper_short(m, n, read, B); break;
        case 9: lower_skips_row_one(m, n, read, B); break;
        case 10: shifted_column(m, n, read, B); break;
        case 11: unit_skips_row_two(m, n, read, B); break;
        case 12: unsigned_upper((unsigned)m, (unsigned)n, alpha, read, B); break;
        case 13: sizet_unit_stored((size_t)m, (size_t)n, alpha, read, B); break;
        case 14: alpha_pointer(m, n, alpha_read, read, B); break;
        case 15: alpha_pointer_stored(m, n, alpha_read, read, B); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++) printf("[%d] = %.12g\n", t, block[t]);
    }
    free(block);
    return 0;
}
