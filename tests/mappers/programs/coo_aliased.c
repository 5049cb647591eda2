/* A product in coordinate storage, y[row[k]] += val[k] * x[col[k]], called with x and y
 * apart (argv[2] = 0) and with x the very vector it adds into (1: an entry then reads
 * what earlier entries added). Only the first may run as a kernel. */
#include <stdio.h>
#include <stdlib.h>

void coo_product(long nnz, const int *row, const int *col, const double *val,
                 const double *x, double *y)
{
    for (long k = 0; k < nnz; k++)
        y[row[k]] += val[k] * x[col[k]];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 50;
    int aliased = argc > 2 ? atoi(argv[2]) : 0;
    if (n < 4)
        n = 4;
    long nnz = 4L * n;
    int *row = malloc(nnz * sizeof(int)), *col = malloc(nnz * sizeof(int));
    double *val = malloc(nnz * sizeof(double));
    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
    for (long k = 0; k < nnz; k++) {
        row[k] = (int)((k * 7) % n);
        col[k] = (int)((k * 11 + 3) % n);
        val[k] = 0.25 * (double)(1 + k % 4); /* sums exact in any order */
    }
    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 8);
        y[i] = 1.0;
    }
    coo_product(nnz, row, col, val, aliased ? y : x, y);
    for (int i = 0; i < n; i += n / 5)
        printf("y[%d] = %.17g\n", i, y[i]);
    return 0;
}
