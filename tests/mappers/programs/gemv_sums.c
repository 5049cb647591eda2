/* Two row products over one inner loop, combined after it (blas.idl's GEMVDotSum), for
 * the differential tests of mappers/targets/blas.py's combined plan (idiom_gemv_sum):
 *
 *   gemv_sums N M SEED MODE ALPHA BETA
 *
 * Every kernel computes y = alpha A x + beta B x over A and B (n x m, ld m), most keeping
 * A x in tmp; main prints the whole block holding y, tmp, A, B, x and a spare element.
 * MODE 0: all separate (each kernel one idiom_gemv_sum call);
 *      1: tmp is y (the guard must decline);
 *      2: x overlaps tmp (decline: a product would read what the loop writes);
 *      3: y overlaps A (decline). */
#include <stdio.h>
#include <stdlib.h>

/* both sums kept in memory (the arguments may alias), as a textbook writes it */
void sum_memory(int n, int m, double alpha, double beta, const double *A, const double *B,
                double *tmp, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (int j = 0; j < m; j++) {
            tmp[i] = A[i * m + j] * x[j] + tmp[i];
            y[i] = B[i * m + j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

/* both sums in registers (restrict), tmp stored after the loop; main calls it in mode 0 */
void sum_registers(int n, int m, double alpha, double beta, const double *restrict A,
                   const double *restrict B, double *restrict tmp, const double *restrict x,
                   double *restrict y)
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (int j = 0; j < m; j++) {
            tmp[i] = A[i * m + j] * x[j] + tmp[i];
            y[i] = B[i * m + j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

/* the sums in locals, nothing kept but the combination, the terms in the other order and
   the first unscaled */
void sum_locals(int n, int m, double beta, const double *A, const double *B, const double *x,
                double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0, t = 0.0;
        for (int j = 0; j < m; j++) {
            s += A[i * m + j] * x[j];
            t += x[j] * B[i * m + j];
        }
        y[i] = beta * t + s;
    }
}

/* float, in memory */
void sum_float(int n, int m, float alpha, float beta, const float *A, const float *B,
               float *tmp, const float *x, float *y)
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0f;
        y[i] = 0.0f;
        for (int j = 0; j < m; j++) {
            tmp[i] = A[i * m + j] * x[j] + tmp[i];
            y[i] = B[i * m + j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

/* not a combination of the two sums: their product (no GEMVDotSum; main checks that the
   original runs) */
void sum_product(int n, int m, const double *A, const double *B, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0, t = 0.0;
        for (int j = 0; j < m; j++) {
            s += A[i * m + j] * x[j];
            t += B[i * m + j] * x[j];
        }
        y[i] = s * t;
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
    int m = argc > 2 ? atoi(argv[2]) : 4;
    state = argc > 3 ? (unsigned long long)atoll(argv[3]) : 1;
    int mode = argc > 4 ? atoi(argv[4]) : 0;
    double alpha = argc > 5 ? atof(argv[5]) : 1.5;
    double beta = argc > 6 ? atof(argv[6]) : -0.75;
    /* y (n), tmp (n), A (n x m), B (n x m), x (m), spare */
    int total = n + n + 2 * n * m + m + 1;
    double *block = malloc(sizeof(double) * (size_t)total);
    float *fblock = malloc(sizeof(float) * (size_t)total);
    if (!block || !fblock) return 1;
    int at_t = n, at_a = 2 * n, at_b = at_a + n * m, at_x = at_b + n * m;
    double *y = block, *tmp = block + at_t, *A = block + at_a, *B = block + at_b,
           *x = block + at_x;
    float *fy = fblock, *ft = fblock + at_t, *fA = fblock + at_a, *fB = fblock + at_b,
          *fx = fblock + at_x;
    if (mode == 1) { tmp = y; ft = fy; }
    if (mode == 2) { x = tmp + 1; fx = ft + 1; }
    if (mode == 3) { y = A + 1; fy = fA + 1; }
    for (int kernel = 0; kernel < 5; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        /* positive, so that single-precision sums do not cancel below the tolerance */
        for (int t = 0; t < total; t++) fblock[t] = (float)(block[t] + 1.25);
        switch (kernel) {
        case 0: sum_memory(n, m, alpha, beta, A, B, tmp, x, y); break;
        case 1: if (mode == 0) sum_registers(n, m, alpha, beta, A, B, tmp, x, y); break;
        case 2: sum_locals(n, m, beta, A, B, x, y); break;
        case 3: sum_float(n, m, (float)alpha, (float)beta, fA, fB, ft, fx, fy); break;
        case 4: sum_product(n, m, A, B, x, y); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++)
            printf("[%d] = %.12g\n", t, kernel == 3 ? (double)fblock[t] : block[t]);
    }
    free(block);
    free(fblock);
    return 0;
}
