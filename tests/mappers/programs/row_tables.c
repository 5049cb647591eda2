/* GEMM and GEMV over matrices given as tables of row pointers (double **A), for the
 * differential tests of mappers/plan/row_tables.py. The layout of the rows is the test's choice:
 *
 *   row_tables N SEED LAYOUT
 *
 * LAYOUT 0: rows equally spaced in one block, with padding (BLAS can take them);
 *        1: the same block, two row pointers swapped (not equally spaced);
 *        2: C's rows are A's rows (the product is written over a factor);
 *        3: rows equally spaced, in descending order of address;
 *        4: every row pointer the same (one row read m times).
 * The results are printed in full. */
#include <stdio.h>
#include <stdlib.h>

/* C = A * B, A m x p, B p x n (dot-product form). */
void gemm_rows(int m, int n, int p, double **A, double **B, double **C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double acc = 0.0;
            for (int k = 0; k < p; k++)
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
}

/* y += A^T x, A m x n (row update form). */
void gemv_rows_t(int m, int n, double **A, const double *x, double *y)
{
    for (int i = 0; i < m; i++) {
        double xi = x[i];
        for (int j = 0; j < n; j++)
            y[j] += A[i][j] * xi;
    }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

/* `rows` row pointers into a fresh block, `cols` values each, laid out as LAYOUT says. */
static double **make_rows(int rows, int cols, int layout)
{
    int ld = cols + 3;
    int count = rows > 0 ? rows : 1;
    double *block = malloc(sizeof(double) * (size_t)count * (size_t)ld);
    double **table = malloc(sizeof(double *) * (size_t)count);
    if (!block || !table) exit(1);
    for (int i = 0; i < rows; i++) {
        int slot = layout == 3 ? rows - 1 - i : layout == 4 ? 0 : i;
        table[i] = block + (size_t)slot * (size_t)ld;
    }
    if (layout == 1 && rows >= 2) {
        double *first = table[0];
        table[0] = table[rows - 1];
        table[rows - 1] = first;
    }
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            table[i][j] = next_value();
    return table;
}

static void print_rows(const char *name, double **rows, int m, int n)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            printf("%s[%d][%d] = %.12g\n", name, i, j, rows[i][j]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    state = argc > 2 ? (unsigned long long)atoll(argv[2]) : 1;
    int layout = argc > 3 ? atoi(argv[3]) : 0;
    int m = n, p = n + 1;

    double **A = make_rows(m, p, layout == 2 ? 0 : layout);
    double **B = make_rows(p, n, layout == 2 ? 0 : layout);
    double **C = layout == 2 ? A : make_rows(m, n, 0);
    gemm_rows(m, n, p, A, B, C);
    print_rows("C", C, m, n);

    double *x = malloc(sizeof(double) * (size_t)(m + 1));
    double *y = malloc(sizeof(double) * (size_t)(n + 1));
    if (!x || !y) return 1;
    for (int i = 0; i < m; i++) x[i] = next_value();
    for (int j = 0; j < n; j++) y[j] = next_value();
    double **V = make_rows(m, n, layout == 2 ? 0 : layout);
    gemv_rows_t(m, n, V, x, y);
    for (int j = 0; j < n; j++) printf("y[%d] = %.12g\n", j, y[j]);
    return 0;
}
