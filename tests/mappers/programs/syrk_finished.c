/* SYRK nests that finish each element after its sum, as covariance code does (blas.idl's
 * DividedResult, MirrorStore, FinishedStoredSum), for the differential tests of
 * mappers/targets/syrk.py:
 *
 *   syrk_finished N SEED MODE
 *
 * Every kernel writes one triangle of C (n x n, ld n, the diagonal included or not) from
 * A (n x n, ld n) and, where it mirrors, the other, and where it sets the diagonal, that;
 * main prints all of the block holding C, A and a spare element.
 * MODE 0: C and A separate (each finishing kernel one SYRK call and its finish);
 *      1: A is C itself (the guard must decline);
 *      2: A is C shifted by one element (decline);
 *      3: the divisor is 0 (the kernels that divide must decline);
 *      4: alpha is infinite (the kernels scaling by it must decline: BLAS applies it
 *         elsewhere than the loop, and Inf times a zero sum is NaN). */
#include <stdio.h>
#include <stdlib.h>

/* upper, the sum in a register, divided and mirrored: a covariance matrix */
void cov_dot_upper(int n, double divisor, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[k * n + i] * A[k * n + j];
            s /= divisor;
            C[i * n + j] = s;
            C[j * n + i] = s;
        }
}

/* upper, the sum kept in C, divided after it, mirrored from C */
void cov_stored_upper(int n, double divisor, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            C[i * n + j] = 0.0;
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[k * n + i] * A[k * n + j];
            C[i * n + j] /= divisor;
            C[j * n + i] = C[i * n + j];
        }
}

/* lower, alpha A A^T + beta C, mirrored (no division) */
void lower_scaled_mirrored(int n, double alpha, double beta, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * A[j * n + k];
            C[i * n + j] = alpha * s + beta * C[i * n + j];
            C[j * n + i] = C[i * n + j];
        }
}

/* lower, the sum kept in C from beta * C, mirrored (no division) */
void lower_stored_mirrored(int n, double beta, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            C[i * n + j] *= beta;
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[i * n + k] * A[j * n + k];
            C[j * n + i] = C[i * n + j];
        }
}

/* upper, divided, not mirrored: the lower triangle stays as it was */
void upper_divided(int n, double divisor, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * A[j * n + k];
            C[i * n + j] = s / divisor;
        }
}

/* float, lower, divided by a float and mirrored */
void cov_float_lower(int n, float divisor, float *C, const float *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            float s = 0.0f;
            for (int k = 0; k < n; k++)
                s += A[k * n + i] * A[k * n + j];
            C[i * n + j] = s / divisor;
            C[j * n + i] = C[i * n + j];
        }
}

/* the "mirror" lands one element to the right of the mirrored one: the guard declines */
void mirror_shifted(int n, double divisor, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[k * n + i] * A[k * n + j];
            C[i * n + j] = s / divisor;
            C[j * n + i + 1] = s / divisor;
        }
}

/* the strict upper triangle kept in C, mirrored, the diagonal set to 1 by the row loop
   (rows 0 .. n - 2): a correlation matrix */
void corr_strict_diagonal(int n, double *C, const double *A)
{
    for (int i = 0; i < n - 1; i++) {
        C[i * n + i] = 1.0;
        for (int j = i + 1; j < n; j++) {
            C[i * n + j] = 0.0;
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[k * n + i] * A[k * n + j];
            C[j * n + i] = C[i * n + j];
        }
    }
}

/* the strict upper triangle in a register, divided and mirrored, over every row (the
   last row's loop empty): the diagonal stays as it was */
void cov_strict_all_rows(int n, double divisor, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * A[j * n + k];
            s = s / divisor;
            C[i * n + j] = s;
            C[j * n + i] = s;
        }
}

/* the strict upper triangle, nothing else: the diagonal and the lower triangle stay */
void strict_upper_only(int n, double alpha, double *C, const double *A)
{
    for (int i = 0; i < n - 1; i++)
        for (int j = i + 1; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[k * n + i] * A[k * n + j];
            C[i * n + j] = alpha * s;
        }
}

/* the "diagonal" store one element to the right of the diagonal: the guard declines */
void diagonal_shifted(int n, double *C, const double *A)
{
    for (int i = 0; i < n - 1; i++) {
        C[i * n + i + 1] = 1.0;
        for (int j = i + 1; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[k * n + i] * A[k * n + j];
            C[j * n + i] = s;
            C[i * n + j] = s;
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
    int n = argc > 1 ? atoi(argv[1]) : 5;
    state = argc > 2 ? (unsigned long long)atoll(argv[2]) : 1;
    int mode = argc > 3 ? atoi(argv[3]) : 0;
    int size = n * n;
    double alpha = mode == 4 ? 1.0 / 0.0 : 1.25, beta = 0.5;
    double divisor = mode == 3 ? 0.0 : n - 1.0 + 0.5;
    int total = 2 * size + 2;
    double *block = malloc(sizeof(double) * (size_t)total);
    float *fblock = malloc(sizeof(float) * (size_t)total);
    if (!block || !fblock) return 1;
    double *C = block, *A = block + size + 2;
    const double *read = mode == 1 ? C : mode == 2 ? C + 1 : A;
    float *fC = fblock, *fA = fblock + size + 2;
    const float *fread = mode == 1 ? fC : mode == 2 ? fC + 1 : fA;
    for (int kernel = 0; kernel < 11; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        /* positive, so that single-precision sums do not cancel below the tolerance */
        for (int t = 0; t < total; t++) fblock[t] = (float)(next_value() + 1.25);
        switch (kernel) {
        case 0: cov_dot_upper(n, divisor, C, read); break;
        case 1: cov_stored_upper(n, divisor, C, read); break;
        case 2: lower_scaled_mirrored(n, alpha, beta, C, read); break;
        case 3: lower_stored_mirrored(n, beta, C, read); break;
        case 4: upper_divided(n, divisor, C, read); break;
        case 5: cov_float_lower(n, (float)divisor, fC, fread); break;
        case 6: mirror_shifted(n, divisor, C, read); break;
        case 7: corr_strict_diagonal(n, C, read); break;
        case 8: cov_strict_all_rows(n, divisor, C, read); break;
        case 9: strict_upper_only(n, alpha, C, read); break;
        case 10: diagonal_shifted(n, C, read); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++)
            printf("[%d] = %.12g\n", t, kernel == 5 ? (double)fblock[t] : block[t]);
    }
    free(block);
    free(fblock);
    return 0;
}
