/* CSR products in the forms the generated kernel says: 0-based rows; 1-based storage
   read through `k - 1` and `ja[k] - 1` (SPARSKIT's amux); y scaled and added to;
   float values; 64-bit row pointers and counters; y's old value as the sum's start.
   Usage: csr_forms ROWS STEPS [SWAPPED]. Rows have 0 to 9 entries, the first rows none;
   with SWAPPED, some rows' pointers are swapped (a row whose begin is past its end). */
#include <stdio.h>
#include <stdlib.h>

static unsigned state = 7u;
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

void one_based(int n, const double *x, double *y, const double *a, const int *ja,
               const int *ia) {
    for (int i = 1; i <= n; i++) {
        double t = 0.0;
        for (int k = ia[i - 1]; k < ia[i]; k++)
            t += a[k - 1] * x[ja[k - 1] - 1];
        y[i - 1] = t;
    }
}

void scaled(int n, double alpha, double beta, const int *rowptr, const int *col,
            const double *val, const double *x, double *y) {
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = beta * y[i] + alpha * sum;
    }
}

void single(int n, const int *rowptr, const int *col, const float *val, const float *x,
            float *y) {
    for (int i = 0; i < n; i++) {
        float sum = 0.0f;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}

void wide(long n, const long *rowptr, const int *col, const double *val, const double *x,
          double *y) {
    for (long i = 0; i < n; i++) {
        double sum = 0.0;
        for (long k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}

void accumulate(int n, const int *rowptr, const int *col, const double *val, const double *x,
                double *y) {
    for (int i = 0; i < n; i++) {
        double sum = y[i];
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
            sum += val[k] * x[col[k]];
        y[i] = sum;
    }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100, steps = argc > 2 ? atoi(argv[2]) : 2;
    int *rowptr = malloc((n + 1) * sizeof *rowptr), *ia = malloc((n + 1) * sizeof *ia);
    long *wideptr = malloc((n + 1) * sizeof *wideptr);
    rowptr[0] = 0;
    for (int i = 0; i < n; i++) {
        rowptr[i + 1] = rowptr[i] + (i < 3 ? 0 : (int)(next() % 10));
    }
    int nnz = rowptr[n];
    if (argc > 3) /* some rows' pointers swapped: their begin past their end, no entries */
        for (int i = 5; i < n - 1; i += 17) {
            int t = rowptr[i];
            rowptr[i] = rowptr[i + 1];
            rowptr[i + 1] = t;
        }
    int *col = malloc((nnz + 1) * sizeof *col), *ja = malloc((nnz + 1) * sizeof *ja);
    double *val = malloc((nnz + 1) * sizeof *val);
    float *fval = malloc((nnz + 1) * sizeof *fval);
    for (int k = 0; k < nnz; k++) {
        col[k] = (int)(next() % n);
        ja[k] = col[k] + 1;
        val[k] = (double)(next() % 2001) / 1000.0 - 1.0;
        fval[k] = (float)val[k];
    }
    for (int i = 0; i <= n; i++) {
        ia[i] = rowptr[i] + 1;
        wideptr[i] = rowptr[i];
    }
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    float *fx = malloc(n * sizeof *fx), *fy = malloc(n * sizeof *fy);
    for (int i = 0; i < n; i++) {
        x[i] = 1.0 + (double)(next() % 1000) / 997.0;
        fx[i] = (float)x[i];
        y[i] = 0.0;
    }
    for (int s = 0; s < steps; s++) {
        plain(n, rowptr, col, val, x, y);
        one_based(n, y, x, val, ja, ia);
        scaled(n, 0.5, -0.25, rowptr, col, val, x, y);
        single(n, rowptr, col, fval, fx, fy);
        wide(n, wideptr, col, val, y, x);
        accumulate(n, rowptr, col, val, x, y);
        for (int i = 0; i < n; i++) {
            x[i] = x[i] / (1.0 + (x[i] < 0 ? -x[i] : x[i]));
            fx[i] = fy[i] / (1.0f + (fy[i] < 0 ? -fy[i] : fy[i]));
        }
    }
    for (int i = 0; i < n; i += n / 7 + 1)
        printf("%d %.17g %.17g %.9g\n", i, x[i], y[i], (double)fy[i]);
    return 0;
}
