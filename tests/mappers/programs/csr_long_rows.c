/* CSR products whose rows are long (Usage: csr_long_rows ROWS STEPS LENGTH): each row
   has LENGTH/2 to LENGTH - 1 entries (LENGTH >= 2), or none for every seventh row, its
   columns spread over all of x. Where rows hold 12, 32 or 128 entries or more on average,
   the products run 4, 8 or 32 work-items a row (mappers/targets/sparse.py, ROW_LANES):
   `plain`'s sums of doubles regrouped, `counts`' sums of ints exact in any order,
   `started`'s (from y's old value) one row an item still. */
#include <stdio.h>
#include <stdlib.h>

static unsigned state = 11u;
static unsigned next(void) { state = state * 1103515245u + 12345u; return state >> 8; }

void plain(int n, const int *rowptr, const int *col, const double *val, const double *x,
           double *y) {
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}

void counts(int n, const int *rowptr, const int *col, const int *val, const int *x, int *y) {
    for (int i = 0; i < n; i++) {
        int sum = 0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}

void started(int n, const int *rowptr, const int *col, const double *val, const double *x,
             double *y) {
    for (int i = 0; i < n; i++) {
        double sum = y[i];
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int steps = argc > 2 ? atoi(argv[2]) : 2;
    int length = argc > 3 ? atoi(argv[3]) : 100;
    if (n < 1 || steps < 1 || length < 2)
        return 1;
    int *rowptr = malloc(sizeof(int) * (n + 1));
    rowptr[0] = 0;
    for (int i = 0; i < n; i++)
        rowptr[i + 1] = rowptr[i] + (i % 7 == 3 ? 0 : length / 2 + (int)(next() % (length - length / 2)));
    int nnz = rowptr[n];
    int *col = malloc(sizeof(int) * (nnz + 1));
    double *val = malloc(sizeof(double) * (nnz + 1));
    int *ival = malloc(sizeof(int) * (nnz + 1));
    for (int k = 0; k < nnz; k++) {
        col[k] = (int)(next() % (unsigned)n);
        val[k] = (double)(next() % 1000) / 997.0 - 0.5;
        ival[k] = (int)(next() % 21) - 10;
    }
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    double *z = malloc(sizeof(double) * n);
    int *ix = malloc(sizeof(int) * n), *iy = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++) {
        x[i] = (double)(next() % 1000) / 331.0;
        ix[i] = (int)(next() % 9) - 4;
        z[i] = 0.25 * i;
    }
    double total = 0.0;
    long itotal = 0;
    for (int s = 0; s < steps; s++) {
        plain(n, rowptr, col, val, x, y);
        counts(n, rowptr, col, ival, ix, iy);
        started(n, rowptr, col, val, x, z);
        for (int i = 0; i < n; i++) {
            total += y[i] + 1e-3 * z[i];
            itotal += iy[i];
            x[i] = 0.5 * x[i] + 0.001 * y[i];
        }
    }
    printf("entries %d\n", nnz);
    printf("total %.12g\n", total);
    printf("integers %ld\n", itotal);
    printf("first %.12g %.12g last %.12g %.12g\n", y[0], z[0], y[n - 1], z[n - 1]);
    return 0;
}
