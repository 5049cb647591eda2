/* GEMM and GEMV in the forms of blas.idl beyond the plain ones, for the differential tests
 * of mappers/targets/blas.py:
 *
 *   dense_forms N SEED MODE
 *
 * Every kernel writes its first argument from the other two, all n x n (ld n).
 * MODE 0: three separate arrays (each kernel one BLAS call);
 *      1: the output is also the first input (the guard must decline);
 *      2: the first input is the output shifted by one element (decline);
 *      3: beta is 0 (the kernels that scale C first must decline: 0 * NaN is NaN). */
#include <stdio.h>
#include <stdlib.h>

/* accumulator in memory, set to zero first: C = alpha A B */
void stored_zero(int n, double alpha, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            C[i * n + j] = 0.0;
            for (int k = 0; k < n; k++)
                C[i * n + j] += alpha * A[i * n + k] * B[k * n + j];
        }
}

/* accumulator in memory, scaled first: C = beta C + A B */
void stored_scaled(int n, double beta, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            C[i * n + j] *= beta;
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[i * n + k] * B[k * n + j];
        }
}

/* accumulator in memory from C's old value: C += A^T B */
void stored_old(int n, double *C, const double *A, const double *B)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[k * n + i] * B[k * n + j];
}

/* rank-1 updates with the sum outermost: C += A B */
void updates_kij(int n, double *C, const double *A, const double *B)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            double a = A[i * n + k];
            for (int j = 0; j < n; j++)
                C[i * n + j] += a * B[k * n + j];
        }
}

/* each row scaled, then rank-1 updates: C = beta C + alpha A B */
void scaled_rows(int n, double alpha, double beta, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            C[i * n + j] *= beta;
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                C[i * n + j] += alpha * A[i * n + k] * B[k * n + j];
    }
}

/* y in memory, zeroed first: y = A x (y is C's first column, x B's first row) */
void gemv_zero(int n, double *y, const double *A, const double *x)
{
    for (int i = 0; i < n; i++) {
        y[i * n] = 0.0;
        for (int j = 0; j < n; j++)
            y[i * n] += A[i * n + j] * x[j];
    }
}

/* y in memory, scaled first: y = beta y + A^T x */
void gemv_scaled(int n, double beta, double *y, const double *A, const double *x)
{
    for (int i = 0; i < n; i++) {
        y[i] = beta * y[i];
        for (int j = 0; j < n; j++)
            y[i] += A[j * n + i] * x[j];
    }
}

/* the sum in a register that starts from C's old value: C = C + A B */
void gemm_from_old(int n, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = C[i * n + j];
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

/* the same for y, the sum scaled after: y = alpha (y + A x), beta alpha */
void gemv_from_old(int n, double alpha, double *y, const double *A, const double *x)
{
    for (int i = 0; i < n; i++) {
        double s = y[i];
        for (int j = 0; j < n; j++)
            s += A[i * n + j] * x[j];
        y[i] = alpha * s;
    }
}

/* the sum in a register from beta * C (C[i][j] *= beta; C[i][j] += ... promoted):
   C = beta C + A B */
void gemm_from_scaled(int n, double beta, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = beta * C[i * n + j];
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

/* alpha on a factor of the dot product: C = alpha A B */
void gemm_alpha_factor(int n, double alpha, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += alpha * A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

/* alpha on a factor and on the sum: C = alpha^2 A B, which one call with alpha is not */
void gemm_alpha_twice(int n, double alpha, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += alpha * A[i * n + k] * B[k * n + j];
            C[i * n + j] = alpha * s;
        }
}

/* alpha a constant and a sum over n / 2 terms, which may be none: LLVM moves 0.6 * s
   onto the edge of the loop that ran (0.6 * 0 is 0 on the other), so the stored value is
   a phi of the two */
void gemm_const_alpha(int n, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n / 2; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = 0.6 * s;
        }
}

void gemv_const_alpha(int n, double *y, const double *A, const double *x)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n / 2; j++)
            s += A[i * n + j] * x[j];
        y[i] = s * 0.6;
    }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

static void fill(double *v, int count)
{
    for (int t = 0; t < count; t++) v[t] = next_value();
}

static void print(const char *name, const double *v, int count)
{
    for (int t = 0; t < count; t++) printf("%s[%d] = %.12g\n", name, t, v[t]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    state = argc > 2 ? (unsigned long long)atoll(argv[2]) : 1;
    int mode = argc > 3 ? atoi(argv[3]) : 0;
    int size = n * n;
    double alpha = 1.5, beta = mode == 3 ? 0.0 : -0.75;
    /* one block: the output, the first input (or the output itself), the second input */
    double *block = malloc(sizeof(double) * (size_t)(3 * size + 1));
    if (!block) return 1;
    double *C = block, *A = block + size + 1, *B = block + 2 * size + 1;
    const double *first = mode == 1 ? C : mode == 2 ? C + 1 : A;
    for (int kernel = 0; kernel < 14; kernel++) {
        fill(block, 3 * size + 1);
        switch (kernel) {
        case 0: stored_zero(n, alpha, C, first, B); break;
        case 1: stored_scaled(n, beta, C, first, B); break;
        case 2: stored_old(n, C, first, B); break;
        case 3: updates_kij(n, C, first, B); break;
        case 4: scaled_rows(n, alpha, beta, C, first, B); break;
        case 5: gemv_zero(n, C, first, B); break;
        case 6: gemv_scaled(n, beta, C, first, B); break;
        case 7: gemm_from_old(n, C, first, B); break;
        case 8: gemv_from_old(n, alpha, C, first, B); break;
        case 9: gemm_from_scaled(n, beta, C, first, B); break;
        case 10: gemm_alpha_factor(n, alpha, C, first, B); break;
        case 11: gemm_alpha_twice(n, alpha, C, first, B); break;
        case 12: gemm_const_alpha(n, C, first, B); break;
        case 13: gemv_const_alpha(n, C, first, B); break;
        }
        printf("kernel %d\n", kernel);
        print("C", C, size);
        print("A", A, size);
    }
    free(block);
    return 0;
}
