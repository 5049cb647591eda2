/* In-place products of a batch of rows by one matrix (blas.idl's BatchedRowProducts), for
 * the differential tests of mappers/targets/batched.py:
 *
 *   batched_rows R Q P SEED MODE
 *
 * Every kernel replaces each of the R x Q rows of A (P elements, LD apart) by its product
 * with W (P x P) through a row of sums, or does something close that is not that; main
 * prints the whole block holding A, W, sum and a spare element.
 * MODE 0: all separate;
 *      1: sum overlaps A (the guard must decline);
 *      2: W overlaps A (decline);
 *      3: the rows overlap one another (LD < P: decline). */
#include <stdio.h>
#include <stdlib.h>

/* two batch loops, the sums kept in memory (plain pointers) */
void rows_two_loops(int nr, int nq, int np, int ld, double *A, const double *W, double *sum)
{
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < np; s++)
                    sum[p] += A[(r * nq + q) * ld + s] * W[s * np + p];
            }
            for (int p = 0; p < np; p++)
                A[(r * nq + q) * ld + p] = sum[p];
        }
}

/* one batch loop, float, the sums in a register (restrict); main calls it in mode 0 */
void rows_one_loop_float(int rows, int np, int ld, float *restrict A, const float *restrict W,
                         float *restrict sum)
{
    for (int i = 0; i < rows; i++) {
        for (int p = 0; p < np; p++) {
            float t = 0.0f;
            for (int s = 0; s < np; s++)
                t += W[s * np + p] * A[i * ld + s];
            sum[p] = t;
        }
        for (int p = 0; p < np; p++)
            A[i * ld + p] = sum[p];
    }
}

/* the sums copied into the next row, not the row read: not in place (the original must
   run; the row read and the row written are told apart at run time) */
void rows_shifted(int nr, int nq, int np, int ld, double *A, const double *W, double *sum)
{
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq - 1; q++) {
            for (int p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (int s = 0; s < np; s++)
                    sum[p] += A[(r * nq + q) * ld + s] * W[s * np + p];
            }
            for (int p = 0; p < np; p++)
                A[(r * nq + q + 1) * ld + p] = sum[p];
        }
}

/* every sum into one element: the copy writes the last product everywhere, which is no
   batch of products (the original must run: its sums do not move along p) */
void rows_one_sum(int nr, int nq, int np, int ld, double *A, const double *W, double *sum)
{
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {
                sum[0] = 0.0;
                for (int s = 0; s < np; s++)
                    sum[0] += A[(r * nq + q) * ld + s] * W[s * np + p];
            }
            for (int p = 0; p < np; p++)
                A[(r * nq + q) * ld + p] = sum[0];
        }
}

static unsigned long long state;

static double next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)((state >> 33) % 2001) / 1000.0 - 1.0;
}

int main(int argc, char **argv)
{
    int nr = argc > 1 ? atoi(argv[1]) : 3;
    int nq = argc > 2 ? atoi(argv[2]) : 4;
    int np = argc > 3 ? atoi(argv[3]) : 5;
    state = argc > 4 ? (unsigned long long)atoll(argv[4]) : 1;
    int mode = argc > 5 ? atoi(argv[5]) : 0;
    int ld = mode == 3 ? (np > 1 ? np - 1 : 1) : np + 2;
    /* A (nr * nq rows, ld apart, np more at the end), W (np x np), sum (np), spare */
    int size_a = nr * nq * ld + np;
    int total = size_a + np * np + np + 1;
    double *block = malloc(sizeof(double) * (size_t)total);
    float *fblock = malloc(sizeof(float) * (size_t)total);
    if (!block || !fblock) return 1;
    double *A = block, *W = block + size_a, *sum = W + np * np;
    float *fA = fblock, *fW = fblock + size_a, *fsum = fW + np * np;
    if (mode == 1) sum = A + ld;
    if (mode == 2) W = A + 1;
    for (int kernel = 0; kernel < 4; kernel++) {
        for (int t = 0; t < total; t++) block[t] = next_value();
        /* positive, so that single-precision sums do not cancel below the tolerance */
        for (int t = 0; t < total; t++) fblock[t] = (float)(block[t] + 1.25);
        switch (kernel) {
        case 0: rows_two_loops(nr, nq, np, ld, A, W, sum); break;
        case 1: if (mode == 0) rows_one_loop_float(nr * nq, np, ld, fA, fW, fsum); break;
        case 2: rows_shifted(nr, nq, np, ld, A, W, sum); break;
        case 3: rows_one_sum(nr, nq, np, ld, A, W, sum); break;
        }
        printf("kernel %d\n", kernel);
        for (int t = 0; t < total; t++)
            printf("[%d] = %.12g\n", t, kernel == 1 ? (double)fblock[t] : block[t]);
    }
    free(block);
    free(fblock);
    return 0;
}
