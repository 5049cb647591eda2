/* SYRK and SYR2K in the forms of blas.idl, for the differential tests of mappers/targets/syrk.py:
 *
 *   syrk_forms N SEED MODE
 *
 * Every kernel updates one triangle of C (n x n, ld n) from A (and B), n x n, ld n; main
 * prints all of C, so a call touching the other triangle would show.
 * MODE 0: C and A separate (each kernel one SYRK call);
 *      1: A is C itself (the guard must decline);
 *      2: A is C shifted by one element (decline);
 *      3: beta is 0 (the kernels that scale C first must decline). */
#include <stdio.h>
#include <stdlib.h>

/* lower, rank-1 updates, each row scaled first: C = beta C + alpha A A^T */
void lower_updates(int n, double alpha, double beta, double *C, const double *A)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            C[i * n + j] *= beta;
        for (int k = 0; k < n; k++)
            for (int j = 0; j <= i; j++)
                C[i * n + j] += alpha * A[i * n + k] * A[j * n + k];
    }
}

/* upper, the sum in a register: C = alpha A A^T + C */
void upper_dot(int n, double alpha, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * A[j * n + k];
            C[i * n + j] = alpha * s + C[i * n + j];
        }
}

/* lower, the sum kept in C, zeroed first: C = A^T A */
void lower_stored_trans(int n, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            C[i * n + j] = 0.0;
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[k * n + i] * A[k * n + j];
        }
}

/* upper, the sum kept in C, scaled first: C = beta C + A A^T */
void upper_stored_scaled(int n, double beta, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            C[i * n + j] *= beta;
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[i * n + k] * A[j * n + k];
        }
}

/* the strict lower triangle (no diagonal): no BLAS SYRK (the guard must decline) */
void strict_lower(int n, double *C, const double *A)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < i; j++)
                C[i * n + j] += A[i * n + k] * A[j * n + k];
}

/* SYR2K, lower, rank-1 updates, alpha inside both products, rows scaled first */
void syr2k_lower_updates(int n, double alpha, double beta, double *C, const double *A,
                         const double *B)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++)
            C[i * n + j] *= beta;
        for (int k = 0; k < n; k++)
            for (int j = 0; j <= i; j++)
                C[i * n + j] += A[j * n + k] * alpha * B[i * n + k] + B[j * n + k] * alpha * A[i * n + k];
    }
}

/* SYR2K, upper, one sum of both products in a register, scaled after */
void syr2k_upper_dot(int n, double alpha, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[j * n + k] + B[i * n + k] * A[j * n + k];
            C[i * n + j] = alpha * s + C[i * n + j];
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
    double alpha = 1.25, beta = mode == 3 ? 0.0 : 0.5;
    int total = 3 * size + 1;
    double *block = malloc(sizeof(double) * (size_t)total);
    if (!block) return 1;
    double *C = block, *A = block + size + 1, *B = block + 2 * size + 1;
    const double *read = mode == 1 ? C : mode == 2 ? C + 1 : A;
    for (int kernel = 0; kernel < 7; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        switch (kernel) {
        case 0: lower_updates(n, alpha, beta, C, read); break;
        case 1: upper_dot(n, alpha, C, read); break;
        case 2: lower_stored_trans(n, C, read); break;
        case 3: upper_stored_scaled(n, beta, C, read); break;
        case 4: strict_lower(n, C, read); break;
        case 5: syr2k_lower_updates(n, alpha, beta, C, read, B); break;
        case 6: syr2k_upper_dot(n, alpha, C, read, B); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++) printf("[%d] = %.12g\n", t, block[t]);
    }
    free(block);
    return 0;
}
