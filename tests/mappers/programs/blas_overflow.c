/* Dense products whose sums come near overflow, for the differential tests of the BLAS
 * runtime's bounds (mappers/runtime/idiom_blas.c):
 *
 *   blas_overflow N SEED MODE
 *
 * Every kernel works on square N x N matrices (ld N) and vectors of N; main prints each
 * kernel's outputs. BLAS adds in blocks where the loop adds in its own order, so where
 * one order overflows and another does not they disagree (Inf against a number): the
 * runtime must decline those calls (the loop runs).
 * MODE 0: values in [-1, 1] (every call does the work);
 *      1: the first factor of every product +-0.6 times the largest double, the signs
 *         alternating along each sum, the second factor 1, so that the loop's running
 *         sums stay finite while a blocked sum may not (every call must decline);
 *      2: one infinity in the first matrix (every call does the work: the sums holding
 *         it end Inf or NaN in every order);
 *      3: values in [-1, 1] but A and C near the largest double (every call but the
 *         rank-1 update must decline). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

void gemm_ijk(int n, double alpha, double beta, const double *A, const double *B, double *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = beta * C[i * n + j] + alpha * s;
        }
}

void syrk_lower(int n, double alpha, double beta, const double *A, double *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * A[j * n + k];
            C[i * n + j] = beta * C[i * n + j] + alpha * s;
        }
}

void syr2k_lower(int n, double alpha, double beta, const double *A, const double *B, double *C)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += A[i * n + k] * B[j * n + k] + B[i * n + k] * A[j * n + k];
            C[i * n + j] = beta * C[i * n + j] + alpha * s;
        }
}

void gemv_rows(int n, double alpha, double beta, const double *A, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += A[i * n + j] * x[j];
        y[i] = beta * y[i] + alpha * s;
    }
}

void ger_rank1(int n, double alpha, const double *x, const double *y, double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i * n + j] += alpha * x[i] * y[j];
}

void ger_rank2(int n, const double *u1, const double *v1, const double *u2, const double *v2,
               double *A)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i * n + j] += u1[i] * v1[j] + u2[i] * v2[j];
}

/* each of the n rows of A (n x n) replaced by its product with B, through the row of sums */
void batched_rows(int n, double *A, const double *B, double *sum)
{
    for (int r = 0; r < 1; r++)
        for (int q = 0; q < n; q++) {
            for (int p = 0; p < n; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < n; s++)
                    sum[p] += A[(r * n + q) * n + s] * B[s * n + p];
            }
            for (int p = 0; p < n; p++)
                A[(r * n + q) * n + p] = sum[p];
        }
}

/* a BiCG step's A^T r and A p over one sweep of A: one matrix read by both products */
void bicg_pair(int n, const double *A, const double *r, const double *p, double *s, double *q)
{
    for (int i = 0; i < n; i++) {
        double t = 0.0;
        for (int j = 0; j < n; j++) {
            s[j] = s[j] + r[i] * A[i * n + j];
            t += A[i * n + j] * p[j];
        }
        q[i] = t;
    }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

/* `count` values in [-1, 1], or, `huge`, +-0.6 times the largest double with the signs
   alternating from one element to the next. */
static void fill(double *v, int count, int huge)
{
    for (int t = 0; t < count; t++) {
        double value = next_value();
        v[t] = huge ? (t % 2 == 0 ? 0.6 : -0.6) * DBL_MAX : value;
    }
}

static void print(const char *name, const double *v, int count)
{
    printf("%s\n", name);
    for (int t = 0; t < count; t++) printf("[%d] = %.12g\n", t, v[t]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    state = argc > 2 ? (unsigned long long)atoll(argv[2]) : 1;
    int mode = argc > 3 ? atoi(argv[3]) : 0;
    if (n < 1) n = 1;
    size_t nn = (size_t)n * (size_t)n;
    double *A = malloc(nn * sizeof *A), *B = malloc(nn * sizeof *B), *C = malloc(nn * sizeof *C);
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    double *u = malloc((size_t)n * sizeof *u), *v = malloc((size_t)n * sizeof *v);
    if (!A || !B || !C || !x || !y || !u || !v) return 1;
    int values = mode == 1 ? 1 : 0;
    for (int kernel = 0; kernel < 8; kernel++) {
        /* mode 1: A's rows alternate along every sum, B, x and v are ones */
        fill(A, (int)nn, values);
        fill(B, (int)nn, 0);
        fill(C, (int)nn, 0);
        fill(x, n, 0);
        fill(y, n, 0);
        fill(u, n, values);
        fill(v, n, 0);
        if (mode == 1) {
            for (size_t t = 0; t < nn; t++) B[t] = 1.0;
            for (int t = 0; t < n; t++) x[t] = v[t] = 1.0;
        }
        if (mode == 2) A[nn / 2] = 1.0 / 0.0;
        if (mode == 3)
            for (size_t t = 0; t < nn; t++) C[t] = A[t] = (t % 2 ? 0.9 : -0.9) * DBL_MAX;
        switch (kernel) {
        case 0: gemm_ijk(n, 0.5, 1.0, A, B, C); print("gemm", C, (int)nn); break;
        case 1: syrk_lower(n, 0.5, 1.0, A, C); print("syrk", C, (int)nn); break;
        case 2: syr2k_lower(n, 0.5, 1.0, A, B, C); print("syr2k", C, (int)nn); break;
        case 3: gemv_rows(n, 0.5, 1.0, A, x, y); print("gemv", y, n); break;
        case 4: ger_rank1(n, 0.5, u, v, mode == 3 ? A : C); print("ger", mode == 3 ? A : C, (int)nn); break;
        case 5: ger_rank2(n, u, v, x, y, mode == 3 ? A : C); print("ger2", mode == 3 ? A : C, (int)nn); break;
        case 6: batched_rows(n, A, B, y); print("batched", A, (int)nn); print("sums", y, n); break;
        case 7: bicg_pair(n, A, x, v, u, y); print("s", u, n); print("q", y, n); break;
        }
    }
    free(A); free(B); free(C); free(x); free(y); free(u); free(v);
    return 0;
}
