/* Rank-1 and rank-2 updates (GER) in the forms of blas.idl, for the differential tests of
 * mappers/targets/ger.py:
 *
 *   ger_forms N SEED MODE
 *
 * Every kernel updates A (n x n, ld n) from vectors x, y, u, v (n each).
 * MODE 0: A and the vectors separate (each kernel one GER call);
 *      1: x is A's first row (the guard must decline);
 *      2: y overlaps A's last element (decline). */
#include <stdio.h>
#include <stdlib.h>

/* alpha on x: A += alpha x y^T */
void rank1_alpha_x(int n, double alpha, double *A, const double *x, const double *y)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i * n + j] += alpha * x[i] * y[j];
}

/* alpha on y, loops swapped, A column-major: A += x (alpha y)^T */
void rank1_column_major(int n, double alpha, double *A, const double *x, const double *y)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            A[j * n + i] = A[j * n + i] + x[i] * (y[j] * alpha);
}

/* rank 2, the two products added to A one after the other */
void rank2_chained(int n, double *A, const double *x, const double *y, const double *u,
                   const double *v)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i * n + j] = A[i * n + j] + x[i] * y[j] + u[i] * v[j];
}

/* rank 2, the two products added together first */
void rank2_grouped(int n, double *A, const double *x, const double *y, const double *u,
                   const double *v)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i * n + j] += x[i] * y[j] + u[i] * v[j];
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
    int size = n * n, total = size + 4 * n + 1;
    double *block = malloc(sizeof(double) * (size_t)total);
    if (!block) return 1;
    double *A = block, *x = block + size + 1, *y = x + n, *u = y + n, *v = u + n;
    const double *xs = mode == 1 ? A : x;
    const double *ys = mode == 2 && n > 0 ? A + size - 1 : y;
    for (int kernel = 0; kernel < 4; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        switch (kernel) {
        case 0: rank1_alpha_x(n, 1.5, A, xs, ys); break;
        case 1: rank1_column_major(n, -0.5, A, xs, ys); break;
        case 2: rank2_chained(n, A, xs, ys, u, v); break;
        case 3: rank2_grouped(n, A, xs, ys, u, v); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++) printf("[%d] = %.12g\n", t, block[t]);
    }
    free(block);
    return 0;
}
