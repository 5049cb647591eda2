/* A CSR product over tables of row pointers and lengths (HPCCG's layout), its rows laid
 * out in memory six ways (argv[2]): 0, one block in row order, an empty row pointing
 * where the next row starts; 1, the same with the empty row's pointer NULL; 2, two rows
 * sharing their entries; 3, the rows in one block in reverse order; 4, each row padded to
 * a common width in both blocks (HPCG's contiguous arrays); 5, the values padded and the
 * columns packed. Layouts 0, 1 and 4 are blocks the kernel may copy (an empty row's
 * pointer is never followed, padding lies between rows); the others must run the
 * original loop, with its results (in layout 5 a row is not at the same index of both). The same product with the lengths as chars
 * (HPCG's `nonzerosInRow`), whose test before each row LLVM makes on the char itself, runs
 * the same way. */
#include <stdio.h>
#include <stdlib.h>

struct rows {
    int n;
    int *length;
    double **values;
    int **columns;
};

void row_product(const struct rows *a, const double *x, double *y)
{
    for (int i = 0; i < a->n; i++) {
        double sum = 0.0;
        const double *v = a->values[i];
        const int *c = a->columns[i];
        const int m = a->length[i];
        for (int j = 0; j < m; j++)
            sum += v[j] * x[c[j]];
        y[i] = sum;
    }
}

/* HPCG's layout: the rows' lengths are chars. */
void row_product_chars(int n, const char *length, double *const *values, int *const *columns,
                       const double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        double sum = 0.0;
        const double *v = values[i];
        const int *c = columns[i];
        const int m = length[i];
        for (int j = 0; j < m; j++)
            sum += v[j] * x[c[j]];
        y[i] = sum;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 40;
    int layout = argc > 2 ? atoi(argv[2]) : 0;
    if (n < 4)
        n = 4;
    const int width = 3;
    struct rows a = {n, malloc(n * sizeof(int)), malloc(n * sizeof(double *)),
                     malloc(n * sizeof(int *))};
    double *values = malloc((size_t)n * width * sizeof(double));
    int *columns = malloc((size_t)n * width * sizeof(int));
    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
    long next = 0, padded = 0;
    for (int r = 0; r < n; r++) {
        int i = layout == 3 ? n - 1 - r : r;
        a.length[i] = i == n / 2 ? 0 : 1 + i % width;
        long v_at = layout >= 4 ? padded : next, c_at = layout == 4 ? padded : next;
        a.values[i] = values + v_at;
        a.columns[i] = columns + c_at;
        for (int j = 0; j < a.length[i]; j++) {
            values[v_at + j] = 0.5 + (double)((i * 7 + j * 3) % 11);
            columns[c_at + j] = (i * 5 + j * 13) % n;
        }
        next += a.length[i];
        padded += width;
    }
    if (layout == 1) {
        a.values[n / 2] = NULL;
        a.columns[n / 2] = NULL;
    }
    if (layout == 2) {
        a.length[1] = a.length[0];
        a.values[1] = a.values[0];
        a.columns[1] = a.columns[0];
    }
    for (int i = 0; i < n; i++)
        x[i] = 1.0 + (double)(i % 4);
    for (int step = 0; step < 3; step++) {
        row_product(&a, x, y);
        for (int i = 0; i < n; i++)
            x[i] = 0.01 * y[i];
    }
    for (int i = 0; i < n; i += n / 4)
        printf("y[%d] = %.17g\n", i, y[i]);
    char *short_length = malloc(n);
    for (int i = 0; i < n; i++)
        short_length[i] = (char)a.length[i];
    row_product_chars(n, short_length, a.values, a.columns, x, y);
    for (int i = 0; i < n; i += n / 4)
        printf("chars y[%d] = %.17g\n", i, y[i]);
    return 0;
}
