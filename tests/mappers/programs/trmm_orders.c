/* In-place triangular products in other loop orders than rows, columns, sum (blas.idl's
 * TRMM: i-k-j and the columns outermost) for the differential tests of
 * mappers/targets/trmm.py:
 *
 *   trmm_orders M N SEED MODE
 *
 * Every kernel updates B (m x n, ld n) in place from A (m x m, ld m); main prints the
 * whole block holding B, A and a spare element, so a call writing outside B would show.
 * MODE 0: B and A separate (each TRMM kernel one call);
 *      1: A is B itself (the guard must decline);
 *      2: A is B shifted by one element (decline);
 *      3: alpha is 0 (the kernels scaling by alpha must decline);
 *      4: an infinity in B (every call must decline);
 *      5: alpha is infinite (the kernels scaling by alpha must decline). */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

/* i-k-j, unit upper: row i adds the rows below it, not yet updated */
void ikj_unit_upper(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
}

/* i-k-j, unit lower, the rows counting down: row i adds the rows above it */
void ikj_unit_lower_down(int m, int n, const double *A, double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
}

/* i-k-j, unit upper from A^T (A's lower triangle read transposed), float */
void ikj_unit_trans_float(int m, int n, const float *A, float *B)
{
    for (int i = 0; i < m; i++)
        for (int k = i + 1; k < m; k++) {
            float t = A[k * m + i];
            for (int j = 0; j < n; j++)
                B[i * n + j] += t * B[k * n + j];
        }
}

/* columns outermost, non-unit upper from A^T, the sum in a register from zero, scaled */
void jik_nonunit_trans(int m, int n, double alpha, const double *A, double *B)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int k = i; k < m; k++)
                s += A[k * m + i] * B[k * n + j];
            B[i * n + j] = alpha * s;
        }
}

/* columns outermost, non-unit lower, the rows counting down, the sum from zero */
void jik_nonunit_lower_down(int m, int n, double alpha, const double *A, double *B)
{
    for (int j = 0; j < n; j++)
        for (int i = m - 1; i >= 0; i--) {
            double s = 0.0;
            for (int k = 0; k <= i; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = s * alpha;
        }
}

/* columns outermost, non-unit upper, float, not scaled */
void jik_nonunit_upper_float(int m, int n, const float *A, float *B)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float s = 0.0f;
            for (int k = i; k < m; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = s;
        }
}

/* i-k-j with the rows counting up over the rows above, already updated: a recurrence,
   no TRMM (must not be replaced) */
void ikj_lower_up(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
}

/* i-k-j with the rows counting down over the rows below, already updated (must not be
   replaced) */
void ikj_upper_down(int m, int n, const double *A, double *B)
{
    for (int i = m - 1; i >= 0; i--)
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
}

/* columns outermost, the rows counting up over the rows above, already updated in this
   column (must not be replaced) */
void jik_lower_up(int m, int n, const double *A, double *B)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = B[i * n + j];
            for (int k = 0; k < i; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = s;
        }
}

/* i-k-j whose sum takes in the diagonal: B[i][j] += A[i][i] * B[i][j] makes
   (1 + A[i][i]) B[i][j], no TRMM (the guard must decline: the sum runs a row too many) */
void ikj_diagonal_added(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int k = i; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
}

/* i-k-j with alpha on the products alone: (I + alpha N) B, no TRMM (not found) */
void ikj_alpha_on_products(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++)
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += alpha * A[i * m + k] * B[k * n + j];
}

/* columns outermost, unit upper from A^T, scaled: the sum is empty on the last row, and
   LLVM leaves the row loop at its top there for a copy of the store */
void jik_unit_trans(int m, int n, double alpha, const double *A, double *B)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = B[i * n + j];
            for (int k = i + 1; k < m; k++)
                s += A[k * m + i] * B[k * n + j];
            B[i * n + j] = alpha * s;
        }
}

/* columns outermost, unit lower, the rows counting down (the empty sum on row 0, the
   last visited), float, not scaled */
void jik_unit_lower_down_float(int m, int n, const float *A, float *B)
{
    for (int j = 0; j < n; j++)
        for (int i = m - 1; i >= 0; i--) {
            float s = B[i * n + j];
            for (int k = 0; k < i; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = s;
        }
}

/* columns outermost, unit upper with the rows counting down: each row reads rows below
   it already updated in this column, a recurrence (must not be replaced) */
void jik_unit_upper_down(int m, int n, double alpha, const double *A, double *B)
{
    for (int j = 0; j < n; j++)
        for (int i = m - 1; i >= 0; i--) {
            double s = B[i * n + j];
            for (int k = i + 1; k < m; k++)
                s += A[i * m + k] * B[k * n + j];
            B[i * n + j] = alpha * s;
        }
}

/* columns outermost, unit upper, alpha on the products alone: (I + alpha N) B, no TRMM */
void jik_unit_alpha_on_products(int m, int n, double alpha, const double *A, double *B)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = B[i * n + j];
            for (int k = i + 1; k < m; k++)
                s += alpha * A[i * m + k] * B[k * n + j];
            B[i * n + j] = s;
        }
}

/* i-k-j, non-unit upper: row i times the diagonal first, then the rows below added */
void ikj_nonunit_upper(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++)
            B[i * n + j] *= A[i * m + i];
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
    }
}

/* i-k-j, non-unit lower, the rows counting down, the diagonal on the left, float */
void ikj_nonunit_lower_down_float(int m, int n, const float *A, float *B)
{
    for (int i = m - 1; i >= 0; i--) {
        for (int j = 0; j < n; j++)
            B[i * n + j] = A[i * m + i] * B[i * n + j];
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
    }
}

/* i-k-j, the row multiplied by A's first column instead of its diagonal: no TRMM (the
   guard must decline: not T's (i, i) past the first row) */
void ikj_first_column_first(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++)
            B[i * n + j] *= A[i * m];
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
    }
}

/* i-k-j, the diagonal applied after the updates: D (I + N) B, no TRMM (not found) */
void ikj_diagonal_after(int m, int n, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
        for (int j = 0; j < n; j++)
            B[i * n + j] *= A[i * m + i];
    }
}

/* i-k-j, unit upper, each row scaled by alpha once its sum is done */
void ikj_unit_upper_alpha(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
        for (int j = 0; j < n; j++)
            B[i * n + j] *= alpha;
    }
}

/* i-k-j, non-unit upper, the diagonal first and alpha last, float */
void ikj_nonunit_alpha_float(int m, int n, float alpha, const float *A, float *B)
{
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++)
            B[i * n + j] *= A[i * m + i];
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
        for (int j = 0; j < n; j++)
            B[i * n + j] = alpha * B[i * n + j];
    }
}

/* i-k-j, non-unit lower, the rows counting down, the diagonal first (on the right) and
   alpha last */
void ikj_nonunit_alpha_lower_down(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = m - 1; i >= 0; i--) {
        for (int j = 0; j < n; j++)
            B[i * n + j] = B[i * n + j] * A[i * m + i];
        for (int k = 0; k < i; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
        for (int j = 0; j < n; j++)
            B[i * n + j] = B[i * n + j] * alpha;
    }
}

/* i-k-j with the row scaled by alpha before the updates: alpha B + N B, no TRMM (declined
   when mapped) */
void ikj_alpha_before(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++)
            B[i * n + j] *= alpha;
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
    }
}

/* i-k-j scaling all but the row's last element: no TRMM (the guard must decline) */
void ikj_alpha_short(int m, int n, double alpha, const double *A, double *B)
{
    for (int i = 0; i < m; i++) {
        for (int k = i + 1; k < m; k++)
            for (int j = 0; j < n; j++)
                B[i * n + j] += A[i * m + k] * B[k * n + j];
        for (int j = 0; j < n - 1; j++)
            B[i * n + j] *= alpha;
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
    double alpha = mode == 3 ? 0.0 : mode == 5 ? 1.0 / 0.0 : 0.75;
    int total = m * n + m * m + 1;
    double *block = malloc(sizeof(double) * (size_t)(total > 0 ? total : 1));
    float *fblock = malloc(sizeof(float) * (size_t)(total > 0 ? total : 1));
    if (!block || !fblock) return 1;
    double *B = block, *A = block + m * n + 1;
    float *fB = fblock, *fA = fblock + m * n + 1;
    const double *read = mode == 1 ? B : mode == 2 ? B + 1 : A;
    const float *fread = mode == 1 ? fB : mode == 2 ? fB + 1 : fA;
    for (int kernel = 0; kernel < 24; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        for (int t = 0; t < m * m; t++) A[t] *= 1.0 / (m + 1); /* keep sums modest */
        if (mode == 4 && m * n > 0) B[0] = 1.0 / 0.0; /* an infinity in B's first row */
        /* float sums of non-negative terms: no cancellation, so that a float result
           of another summation order stays within the comparison's tolerance */
        for (int t = 0; t < total; t++) fblock[t] = (float)fabs(block[t]);
        switch (kernel) {
        case 0: ikj_unit_upper(m, n, read, B); break;
        case 1: ikj_unit_lower_down(m, n, read, B); break;
        case 2: ikj_unit_trans_float(m, n, fread, fB); break;
        case 3: jik_nonunit_trans(m, n, alpha, read, B); break;
        case 4: jik_nonunit_lower_down(m, n, alpha, read, B); break;
        case 5: jik_nonunit_upper_float(m, n, fread, fB); break;
        case 6: ikj_lower_up(m, n, read, B); break;
        case 7: ikj_upper_down(m, n, read, B); break;
        case 8: jik_lower_up(m, n, read, B); break;
        case 9: ikj_diagonal_added(m, n, read, B); break;
        case 10: ikj_alpha_on_products(m, n, alpha, read, B); break;
        case 11: jik_unit_trans(m, n, alpha, read, B); break;
        case 12: jik_unit_lower_down_float(m, n, fread, fB); break;
        case 13: jik_unit_upper_down(m, n, alpha, read, B); break;
        case 14: jik_unit_alpha_on_products(m, n, alpha, read, B); break;
        case 15: ikj_nonunit_upper(m, n, read, B); break;
        case 16: ikj_nonunit_lower_down_float(m, n, fread, fB); break;
        case 17: ikj_first_column_first(m, n, read, B); break;
        case 18: ikj_diagonal_after(m, n, read, B); break;
        case 19: ikj_unit_upper_alpha(m, n, alpha, read, B); break;
        case 20: ikj_nonunit_alpha_float(m, n, (float)alpha, fread, fB); break;
        case 21: ikj_alpha_before(m, n, alpha, read, B); break;
        case 22: ikj_alpha_short(m, n, alpha, read, B); break;
        case 23: ikj_nonunit_alpha_lower_down(m, n, alpha, read, B); break;
        }
        printf("kernel %d\n", kernel);
        if (kernel == 2 || kernel == 5 || kernel == 12 || kernel == 16 || kernel == 20)
            for (int t = 0; t < total; t++) printf("[%d] = %.6g\n", t, (double)fblock[t]);
        else
            for (int t = 0; t < total; t++) printf("[%d] = %.12g\n", t, block[t]);
    }
    free(block);
    free(fblock);
    return 0;
}
