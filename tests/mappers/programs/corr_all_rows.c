/* Strict upper triangles whose row loop runs over every row, the last one's column loop
 * empty (LLVM leaves the row loop there on the column loop's own test: loops.idl's
 * EarlyExit), for the differential tests of mappers/targets/syrk.py:
 *
 *   corr_all_rows N SEED MODE
 *
 * Every kernel sets C's diagonal to 1 on every row and writes the strict upper triangle
 * of A^T A (n x n, ld n), finished as correlation code does, and its mirror; main prints
 * all of the block holding C, A and a spare element.
 * MODE 0: C and A separate (each kernel one SYRK call and its finish);
 *      1: A is C itself (the guard must decline);
 *      2: A is C shifted by one element (decline). */
#include <stdio.h>
#include <stdlib.h>

/* the sum in a register, divided and mirrored, flat arrays */
void corr_flat(int n, double divisor, double *C, const double *A)
{
    for (int i = 0; i < n; i++) {
        C[i * n + i] = 1.0;
        for (int j = i + 1; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[k * n + i] * A[k * n + j];
            C[i * n + j] = s / divisor;
            C[j * n + i] = C[i * n + j];
        }
    }
}

/* single precision, the sum kept in C and mirrored */
void corr_float_stored(int n, float *C, const float *A)
{
    for (int i = 0; i < n; i++) {
        C[i * n + i] = 1.0f;
        for (int j = i + 1; j < n; j++) {
            C[i * n + j] = 0.0f;
            for (int k = 0; k < n; k++)
                C[i * n + j] += A[k * n + i] * A[k * n + j];
            C[j * n + i] = C[i * n + j];
        }
    }
}

/* rows given as tables of pointers */
void corr_rows(int n, double divisor, double **C, double *const *A)
{
    for (int i = 0; i < n; i++) {
        C[i][i] = 1.0;
        for (int j = i + 1; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[k][i] * A[k][j];
            C[i][j] = s / divisor;
            C[j][i] = C[i][j];
        }
    }
}

/* the "diagonal" one element to the right of it: the guard declines */
void corr_diagonal_shifted(int n, double divisor, double *C, const double *A)
{
    for (int i = 0; i < n; i++) {
        C[i * n + i + 1] = 1.0;
        for (int j = i + 1; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[k * n + i] * A[k * n + j];
            C[i * n + j] = s / divisor;
            C[j * n + i] = C[i * n + j];
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
    double divisor = n + 0.5;
    int total = 2 * size + 2;
    double *block = malloc(sizeof(double) * (size_t)total);
    float *fblock = malloc(sizeof(float) * (size_t)total);
    double **crows = malloc(sizeof(double *) * (size_t)(n + 1));
    double **arows = malloc(sizeof(double *) * (size_t)(n + 1));
    if (!block || !fblock || !crows || !arows) return 1;
    double *C = block, *A = block + size + 2;
    const double *read = mode == 1 ? C : mode == 2 ? C + 1 : A;
    float *fC = fblock, *fA = fblock + size + 2;
    const float *fread = mode == 1 ? fC : mode == 2 ? fC + 1 : fA;
    for (int r = 0; r < n; r++) {
        crows[r] = C + (size_t)r * n;
        arows[r] = (double *)read + (size_t)r * n;
    }
    for (int kernel = 0; kernel < 4; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        /* positive, so that single-precision sums do not cancel below the tolerance */
        for (int t = 0; t < total; t++) fblock[t] = (float)(next_value() + 1.25);
        switch (kernel) {
        case 0: corr_flat(n, divisor, C, read); break;
        case 1: corr_float_stored(n, fC, fread); break;
        case 2: corr_rows(n, divisor, crows, arows); break;
        case 3: corr_diagonal_shifted(n, divisor, C, read); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++)
            printf("[%d] = %.12g\n", t, kernel == 1 ? (double)fblock[t] : block[t]);
    }
    free(block);
    free(fblock);
    free(crows);
    free(arows);
    return 0;
}
