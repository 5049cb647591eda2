/* In-place products of a batch of rows by one matrix, the rows reached through a table of
 * row pointers (mappers/targets/batched.py with mappers/plan/row_tables.py):
 *
 *   batched_row_tables R Q P SEED LAYOUT
 *
 * Both kernels replace each of the R x Q rows (P elements) by its product with W (P x P)
 * through a row of sums; main prints every row, W and the sums.
 * LAYOUT 0: the rows one after another in one block, LD = P + 2 apart (one GEMM);
 *        1: each row allocated on its own (the original code);
 *        2: the rows of the block shuffled (SEED's order), then the first two swapped if
 *           that left them in order: never equally spaced from three rows on (the
 *           original code);
 *        3: the rows of the block in descending order (equally spaced, a negative step:
 *           BLAS declines, the original code);
 *        4: one block per r, the blocks 5 elements apart (a grid: one call of the two-loop
 *           kernel, one GEMM per block; not equally spaced for the one-loop kernel);
 *        5: the sums inside the first row (the guard declines);
 *        6: the rows overlap one another (LD = P - 1: BLAS declines);
 *        7: one block per r, the gap before block r 5 * r elements (equally spaced along
 *           q only: the original code for both kernels). */
#include <stdio.h>
#include <stdlib.h>

/* two batch loops: the row A[r * nq + q] */
void table_two_loops(int nr, int nq, int np, double **A, const double *W, double *sum)
{
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < np; s++)
                    sum[p] += A[r * nq + q][s] * W[s * np + p];
            }
            for (int p = 0; p < np; p++)
                A[r * nq + q][p] = sum[p];
        }
}

/* one batch loop: the row A[i] */
void table_one_loop(int rows, int np, double **A, const double *W, double *sum)
{
    for (int i = 0; i < rows; i++) {
        for (int p = 0; p < np; p++) {
            double t = 0.0;
            for (int s = 0; s < np; s++)
                t += A[i][s] * W[s * np + p];
            sum[p] = t;
        }
        for (int p = 0; p < np; p++)
            A[i][p] = sum[p];
    }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

static int next_index(int below)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((state >> 33) % (unsigned long long)below);
}

/* Where block r starts in layouts 4 and 7. */
static size_t block_start(int layout, int r, int nq, int ld)
{
    size_t gaps = layout == 4 ? (size_t)r * 5 : (size_t)r * (r + 1) / 2 * 5;
    return (size_t)r * nq * ld + gaps;
}

/* The table of `rows` row pointers for `layout`, into `block` (or rows of their own, kept in
   `owned`). */
static double **make_table(int layout, int nr, int nq, int np, double *block, double **owned)
{
    int rows = nr * nq, ld = layout == 6 ? (np > 1 ? np - 1 : 1) : np + 2;
    double **A = malloc(sizeof(double *) * (size_t)(rows > 0 ? rows : 1));
    for (int i = 0; i < rows; i++) {
        owned[i] = NULL;
        if (layout == 1) A[i] = owned[i] = malloc(sizeof(double) * (size_t)(np > 0 ? np : 1));
        else if (layout == 3) A[i] = block + (size_t)(rows - 1 - i) * ld;
        else if (layout == 4 || layout == 7)
            A[i] = block + block_start(layout, i / nq, nq, ld) + (size_t)(i % nq) * ld;
        else A[i] = block + (size_t)i * ld;
    }
    for (int i = rows - 1; layout == 2 && i > 0; i--) {
        int j = next_index(i + 1);
        double *t = A[i];
        A[i] = A[j];
        A[j] = t;
    }
    int in_order = 1;
    for (int i = 1; i < rows; i++) in_order = in_order && A[i] == A[0] + (size_t)i * ld;
    if (layout == 2 && rows > 1 && in_order) {
        double *t = A[0];
        A[0] = A[1];
        A[1] = t;
    }
    return A;
}

int main(int argc, char **argv)
{
    int nr = argc > 1 ? atoi(argv[1]) : 3;
    int nq = argc > 2 ? atoi(argv[2]) : 4;
    int np = argc > 3 ? atoi(argv[3]) : 5;
    unsigned long long seed = argc > 4 ? (unsigned long long)atoll(argv[4]) : 1;
    int layout = argc > 5 ? atoi(argv[5]) : 0;
    int rows = nr * nq;
    /* the rows (with room for the padding and the gaps of layouts 4 and 7), W, sum */
    size_t size_rows = (size_t)rows * (np + 2) + block_start(7, nr, 0, 0) + 1;
    size_t total = size_rows + (size_t)np * np + (size_t)np + 1;
    double *block = malloc(sizeof(double) * total);
    double **owned = malloc(sizeof(double *) * (size_t)(rows > 0 ? rows : 1));
    if (!block || !owned) return 1;
    double *W = block + size_rows, *sum = W + (size_t)np * np;
    for (int kernel = 0; kernel < 2; kernel++) {
        state = seed;
        for (size_t t = 0; t < total; t++) block[t] = next_value();
        double **A = make_table(layout, nr, nq, np, block, owned);
        double *sums = layout == 5 && rows > 0 ? A[0] + (np > 1 ? 1 : 0) : sum;
        for (int i = 0; i < rows; i++)
            for (int p = 0; owned[i] && p < np; p++) owned[i][p] = next_value();
        if (kernel == 0) table_two_loops(nr, nq, np, A, W, sums);
        else table_one_loop(rows, np, A, W, sums);
        printf("kernel %d\n", kernel);
        for (int i = 0; i < rows; i++)
            for (int p = 0; p < np; p++)
                printf("A[%d][%d] = %.12g\n", i, p, A[i][p]);
        for (int t = 0; t < np * np; t++) printf("W[%d] = %.12g\n", t, W[t]);
        for (int p = 0; p < np; p++) printf("sum[%d] = %.12g\n", p, sums[p]);
        for (int i = 0; i < rows; i++) free(owned[i]);
        free(A);
    }
    free(owned);
    free(block);
    return 0;
}
