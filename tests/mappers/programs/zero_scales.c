/* GEMM, GEMV and GER multiplying by alpha and beta that may be 0, over data holding a NaN
   and an infinity: the loop computes 0 * NaN = NaN where BLAS, told alpha or beta is 0,
   would not read the values. Arguments: n, alpha, beta, where the NaN goes (0 in C and y,
   1 in A and x, 2 nowhere). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void gemm_ab(int n, double alpha, double beta, const double *A, const double *B, double *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = alpha * s + beta * C[i * n + j];
        }
}

void gemv_ab(int n, double alpha, double beta, const double *A, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += A[i * n + j] * x[j];
        y[i] = beta * y[i] + alpha * s;
    }
}

void ger_a(int n, double alpha, const double *x, const double *y, double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i * n + j] += alpha * x[i] * y[j];
}

static void print(const char *name, const double *v, int count)
{
    for (int t = 0; t < count; t++) printf("%s[%d] = %.12g\n", name, t, v[t]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    double alpha = argc > 2 ? atof(argv[2]) : 1.0;
    double beta = argc > 3 ? atof(argv[3]) : 1.0;
    int where = argc > 4 ? atoi(argv[4]) : 2;
    size_t size = (size_t)n * (size_t)n;
    double *A = malloc(sizeof(double) * size), *B = malloc(sizeof(double) * size);
    double *C = malloc(sizeof(double) * size);
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    for (size_t t = 0; t < size; t++) {
        A[t] = (double)(t % 7) - 3.0;
        B[t] = (double)(t % 5) / 4.0;
        C[t] = (double)(t % 3);
    }
    for (int t = 0; t < n; t++) {
        x[t] = (double)(t % 4) - 1.5;
        y[t] = (double)(t % 6);
    }
    if (where == 0) {
        C[size / 2] = NAN;
        C[0] = INFINITY;
        y[n / 2] = NAN;
    } else if (where == 1) {
        A[size / 2] = NAN;
        x[0] = INFINITY;
    }
    gemm_ab(n, alpha, beta, A, B, C);
    print("C", C, (int)size);
    gemv_ab(n, alpha, beta, A, x, y);
    print("y", y, n);
    ger_a(n, alpha, x, y, A);
    print("A", A, (int)size);
    free(A);
    free(B);
    free(C);
    free(x);
    free(y);
    return 0;
}
