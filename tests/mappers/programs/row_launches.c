/* A grid smoothed one row at a time, as NAS MG's psinv and resid do: each call is a launch
   over one row, reading a row of `in` that the host never touches again and writing a row
   of `out` that the host reads at once. Every row of `in` the device copied stays held:
   thousands of small device copies unless the runtime bounds them.
   Usage: row_launches ROWS COLS */
#include <stdio.h>
#include <stdlib.h>

static void smooth_row(double *out, const double *in, int n) {
    for (int i = 1; i < n - 1; i++) {
        out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
    }
}

int main(int argc, char **argv) {
    int rows = argc > 1 ? atoi(argv[1]) : 2000;
    int cols = argc > 2 ? atoi(argv[2]) : 130;
    double *in = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
    double *out = calloc((size_t)rows * (size_t)cols, sizeof(double));
    if (in == NULL || out == NULL) {
        return 1;
    }
    for (long k = 0; k < (long)rows * cols; k++) {
        in[k] = (double)((k * 7919) % 1000) / 100.0;
    }
    double total = 0.0;
    for (int sweep = 0; sweep < 2; sweep++) {
        for (int r = 0; r < rows; r++) {
            smooth_row(out + (long)r * cols, in + (long)r * cols, cols);
            total += out[(long)r * cols + cols / 2]; /* the host reads the row it got */
        }
    }
    printf("total %.6f\n", total);
    for (int r = 0; r < rows; r += rows / 7 + 1) {
        printf("row %d: %.6f %.6f\n", r, out[(long)r * cols + 1], out[(long)r * cols + cols - 2]);
    }
    free(in);
    free(out);
    return 0;
}
