/* Sparse products in coordinate storage, y[row[k]] += val[k] * x[col[k]], in the forms
   the generated kernel says: 0-based int indices; 1-based columns (col[k] - 1); float
   values; 64-bit indices; conditional: every entry but those just above the diagonal
   (a test on what every iteration reads), positive values only (the row and column read
   under the test; the other entries' rows and columns are far outside y and x). Values
   are multiples of 1/8 and x small integers, so that the sums are exact in any order:
   the atomic adds of the kernel reorder them. Usage: coo_forms N STEPS (N rows and columns, 6 N entries). */
#include <stdio.h>
#include <stdlib.h>

static unsigned state = 11u;
static unsigned next(void) { state = state * 1103515245u + 12345u; return state >> 8; }

void plain(int nnz, const int *row, const int *col, const double *val, const double *x,
           double *y) {
    for (int k = 0; k < nnz; k++)
        y[row[k]] += val[k] * x[col[k]];
}

void one_based(int nnz, const int *row, const int *jc, const double *a, const double *x,
               double *y) {
    for (int k = 0; k < nnz; k++)
        y[row[k]] += a[k] * x[jc[k] - 1];
}

void single(int nnz, const int *row, const int *col, const float *val, const float *x,
            float *y) {
    for (int k = 0; k < nnz; k++)
        y[row[k]] += val[k] * x[col[k]];
}

void wide(long nnz, const long *row, const long *col, const double *val, const double *x,
          double *y) {
    for (long k = 0; k < nnz; k++)
        y[row[k]] += val[k] * x[col[k]];
}

void except_superdiagonal(int nnz, const int *row, const int *col, const double *val,
                  const double *x, double *y) {
    for (int k = 0; k < nnz; k++)
        if (col[k] != row[k] + 1)
            y[row[k]] += val[k] * x[col[k]];
}

void positive(int nnz, const int *row, const int *col, const double *val, const double *x,
              double *y) {
    for (int k = 0; k < nnz; k++)
        if (val[k] > 0.0)
            y[row[k]] += val[k] * x[col[k]];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100, steps = argc > 2 ? atoi(argv[2]) : 2;
    int nnz = 6 * n;
    int *row = malloc(nnz * sizeof *row), *col = malloc(nnz * sizeof *col);
    int *jc = malloc(nnz * sizeof *jc);
    long *lrow = malloc(nnz * sizeof *lrow), *lcol = malloc(nnz * sizeof *lcol);
    int *prow = malloc(nnz * sizeof *prow), *pcol = malloc(nnz * sizeof *pcol);
    double *val = malloc(nnz * sizeof *val);
    float *fval = malloc(nnz * sizeof *fval);
    for (int k = 0; k < nnz; k++) {
        row[k] = (int)(next() % n);
        col[k] = (int)(next() % n);
        jc[k] = col[k] + 1;
        lrow[k] = row[k];
        lcol[k] = col[k];
        val[k] = (double)((int)(next() % 17) - 8) / 8.0;
        fval[k] = (float)val[k];
        prow[k] = val[k] > 0.0 ? row[k] : 1 << 30;
        pcol[k] = val[k] > 0.0 ? col[k] : 1 << 30;
    }
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    float *fx = malloc(n * sizeof *fx), *fy = malloc(n * sizeof *fy);
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++) {
            x[i] = (double)((int)(next() % 9) - 4);
            fx[i] = (float)x[i];
            y[i] = 0.0;
            fy[i] = 0.0f;
        }
        plain(nnz, row, col, val, x, y);
        one_based(nnz, row, jc, val, x, y);
        single(nnz, row, col, fval, fx, fy);
        wide(nnz, lrow, lcol, val, x, y);
        except_superdiagonal(nnz, row, col, val, x, y);
        positive(nnz, prow, pcol, val, x, y);
        double total = 0.0;
        for (int i = 0; i < n; i++)
            total += y[i] * (double)(i % 5) + (double)fy[i];
        printf("%d %.17g %.17g %.9g\n", s, total, y[n / 2], (double)fy[n - 1]);
    }
    return 0;
}
