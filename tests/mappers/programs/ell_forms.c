/* ELLPACK products in the forms the generated kernel says: entries stored by rows
   (val[i*w + j]) or by columns (val[j*n + i], the GPU layout), float values and y added
   to. Usage: ell_forms ROWS STEPS [WIDTH]
   (WIDTH 0: no entries at all). Padding entries are zeros at column 0, read as stored. */
#include <stdio.h>
#include <stdlib.h>

static unsigned state = 5u;
static unsigned next(void) { state = state * 1103515245u + 12345u; return state >> 8; }

void rows(int n, int w, const double *val, const int *col, const double *x, double *y) {
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = 0; j < w; j++)
            sum += val[i * w + j] * x[col[i * w + j]];
        y[i] = sum;
    }
}

void columns(int n, int w, const double *val, const int *col, const double *x, double *y) {
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = 0; j < w; j++)
            sum += val[j * n + i] * x[col[j * n + i]];
        y[i] = sum;
    }
}

void single(int n, int w, const float *val, const int *col, const float *x, float *y) {
    for (int i = 0; i < n; i++) {
        float sum = 0.0f;
        for (int j = 0; j < w; j++)
            sum += val[i * w + j] * x[col[i * w + j]];
        y[i] = sum;
    }
}

void accumulate(int n, int w, const double *val, const int *col, const double *x, double *y) {
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        for (int j = 0; j < w; j++)
            sum += val[i * w + j] * x[col[i * w + j]];
        y[i] += sum;
    }
}

static double checksum(int n, const double *y) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (i % 5 + 1) * y[i];
    return s;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100, steps = argc > 2 ? atoi(argv[2]) : 2;
    int w = argc > 3 ? atoi(argv[3]) : 7;
    int cells = n * w > 0 ? n * w : 1;
    int *len = malloc(n * sizeof *len), *col = malloc(cells * sizeof *col);
    int *colt = malloc(cells * sizeof *colt);
    double *val = malloc(cells * sizeof *val), *valt = malloc(cells * sizeof *valt);
    float *fval = malloc(cells * sizeof *fval);
    for (int i = 0; i < n; i++) {
        len[i] = w > 0 ? (int)(next() % (unsigned)(w + 1)) : 0;
        for (int j = 0; j < w; j++) {
            int k = i * w + j;
            col[k] = j < len[i] ? (int)(next() % (unsigned)n) : 0;
            val[k] = j < len[i] ? (double)(next() % 1000) / 997.0 - 0.3 : 0.0;
            fval[k] = (float)val[k];
            colt[j * n + i] = col[k];
            valt[j * n + i] = val[k];
        }
    }
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    float *fx = malloc(n * sizeof *fx), *fy = malloc(n * sizeof *fy);
    for (int i = 0; i < n; i++) {
        x[i] = 1.0 + (double)(next() % 100) / 103.0;
        fx[i] = (float)x[i];
        y[i] = 0.25;
    }
    for (int s = 0; s < steps; s++) {
        rows(n, w, val, col, x, y);
        printf("rows %.17g\n", checksum(n, y));
        columns(n, w, valt, colt, y, x);
        printf("columns %.17g\n", checksum(n, x));
        single(n, w, fval, col, fx, fy);
        for (int i = 0; i < n; i++) fx[i] = fy[i] * 0.5f + 0.125f;
        printf("single %.9g\n", (double)fy[n / 2]);
        accumulate(n, w, val, col, x, y);
        printf("accumulate %.17g\n", checksum(n, y));
        for (int i = 0; i < n; i++) x[i] = y[i] / (1.0 + (y[i] < 0 ? -y[i] : y[i]));
    }
    return 0;
}
