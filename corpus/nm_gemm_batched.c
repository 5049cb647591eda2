// corpus: near-miss GEMM, loops shaped like the batched in-place product of rows by one matrix (doitgen) that compute something else: the sums added to the row, the sums carried from row to row, the row overwritten while it is read, the sums squared on the way back
// args: test=3 4 5 2 bench=48 64 96 50
// near-miss: rows_add_product adds the sums to the row instead of copying them over it (A[r][q][p] += sum[p]: A <- A + A W, not A W); rows_running_total zeroes the sums once for the whole batch, so each row receives the running total of the products of all rows so far; rows_overwrite_early stores each product over the row while the row is still being read (no row of sums in between: later elements read the new values of earlier ones); rows_square_back stores the square of each sum over the row (A[r][q][p] = sum[p] * sum[p], not a product)
#include <stdio.h>
#include <stdlib.h>

#define NP 96

/* Each row gets its product with W added to it: A[r][q] <- A[r][q] (I + W), not
   A[r][q] W. The (p, s) nest alone is a product of the row by W (sum = W^T a). */
void rows_add_product(int nr, int nq, int np, double A[][64][NP], double W[NP][NP],
                      double sum[NP])
{
    for (int r = 0; r < nr; r++)                   // expect-none: GEMM
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {         // expect: GEMV in rows_add_product
                sum[p] = 0.0;
                for (int s = 0; s < np; s++)
                    sum[p] += A[r][q][s] * W[s][p];
            }
            for (int p = 0; p < np; p++)   // expect: Map in rows_add_product
                A[r][q][p] += sum[p];
        }
}

/* The sums are zeroed once, before the batch: row (r, q) is replaced by the sum of the
   products of every row up to it, a running total over the batch. The (p, s) nest alone
   adds a product to the sums (sum += W^T a). */
void rows_running_total(int nr, int nq, int np, double *A, const double *W, double *sum)
{
    for (int p = 0; p < np; p++)
        sum[p] = 0.0;
    for (int r = 0; r < nr; r++)                   // expect-none: GEMM
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++)           // expect: GEMV in rows_running_total
                for (int s = 0; s < np; s++)
                    sum[p] += A[(r * nq + q) * np + s] * W[s * np + p];
            for (int p = 0; p < np; p++)
                A[(r * nq + q) * np + p] = sum[p];
        }
}

/* Each row is replaced by the squares of its product with W: the copy changes the sums
   on the way back. The (p, s) nest alone is a product of the row by W (sum = W^T a). */
void rows_square_back(int nr, int nq, int np, double *A, const double *W, double *sum)
{
    for (int r = 0; r < nr; r++)                   // expect-none: GEMM
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {         // expect: GEMV in rows_square_back
                double t = 0.0;
                for (int s = 0; s < np; s++)
                    t += W[s * np + p] * A[(r * nq + q) * np + s];
                sum[p] = t;
            }
            for (int p = 0; p < np; p++)   // expect: Map in rows_square_back
                A[(r * nq + q) * np + p] = sum[p] * sum[p];
        }
}

/* Each element is stored as soon as its sum is made, over the row still being read: the
   later elements of the row read the new values of the earlier ones. The sum alone (over
   s, in a register) is a dot product. */
void rows_overwrite_early(int nr, int nq, int np, double *A, const double *W)
{
    for (int r = 0; r < nr; r++)                   // expect-none: GEMM
        for (int q = 0; q < nq; q++)
            for (int p = 0; p < np; p++) {
                double t = 0.0;
                for (int s = 0; s < np; s++)       // expect: Reduction in rows_overwrite_early
                    t += A[(r * nq + q) * np + s] * W[s * np + p];
                A[(r * nq + q) * np + p] = t;
            }
}

static double A3[48][64][NP], W3[NP][NP], sum3[NP];

static void fill(int nr, int nq, int np, int it, double *A, double *W)
{
    for (int i = 0; i < nr * nq * np; i++)
        A[i] = (double)((i * 7 + it) % 13 + 1) / 13.0;
    for (int s = 0; s < np; s++)
        for (int p = 0; p < np; p++)
            W[s * np + p] = (double)((s * 3 + p * 5 + it) % 11 + 1) / (6.0 * np);
}

static double checksum(int count, const double *x)
{
    double c = 0.0;
    for (int i = 0; i < count; i++)                // expect: Reduction in checksum
        c += x[i] * (double)(i % 5 + 1);
    return c;
}

int main(int argc, char **argv)
{
    int nr = argc > 1 ? atoi(argv[1]) : 8;
    int nq = argc > 2 ? atoi(argv[2]) : 8;
    int np = argc > 3 ? atoi(argv[3]) : 16;
    int iters = argc > 4 ? atoi(argv[4]) : 1;
    if (nr < 1 || nr > 48 || nq < 1 || nq > 64 || np < 1 || np > NP || iters < 1)
        return 1;
    int count = nr * nq * np;
    double *A = malloc((size_t)count * sizeof *A);
    double *W = malloc((size_t)np * np * sizeof *W);
    double *sum = malloc((size_t)np * sizeof *sum);
    if (!A || !W || !sum) return 1;

    /* every repetition starts again from inputs that depend on it only */
    double c1 = 0.0, s1 = 0.0, c2 = 0.0, s2 = 0.0, c3 = 0.0, c4 = 0.0, s4 = 0.0;
    for (int it = 0; it < iters; it++) {
        /* the 3D arrays: the same values, row (r, q) at A3[r][q] */
        fill(nr, nq, np, it, A, W);
        for (int r = 0; r < nr; r++)
            for (int q = 0; q < nq; q++)
                for (int p = 0; p < np; p++)
                    A3[r][q][p] = A[(r * nq + q) * np + p];
        for (int s = 0; s < np; s++)
            for (int p = 0; p < np; p++)
                W3[s][p] = W[s * np + p];
        rows_add_product(nr, nq, np, A3, W3, sum3);
        for (int r = 0; r < nr; r++)
            for (int q = 0; q < nq; q++)
                for (int p = 0; p < np; p++)       // expect: Reduction in main
                    c1 += A3[r][q][p] * (double)((r + q + p) % 3 + 1);
        s1 += checksum(np, sum3);

        rows_running_total(nr, nq, np, A, W, sum);
        c2 += checksum(count, A) / count;
        s2 += checksum(np, sum);

        fill(nr, nq, np, it, A, W);
        rows_overwrite_early(nr, nq, np, A, W);
        c3 += checksum(count, A);

        fill(nr, nq, np, it, A, W);
        rows_square_back(nr, nq, np, A, W, sum);
        c4 += checksum(count, A);
        s4 += checksum(np, sum);
    }
    printf("nr nq np = %d %d %d iters = %d\n", nr, nq, np, iters);
    printf("add product: %.10g sum = %.10g\n", c1 / iters, s1 / iters);
    printf("running total: %.10g sum = %.10g\n", c2 / iters, s2 / iters);
    printf("overwrite early: %.10g\n", c3 / iters);
    printf("square back: %.10g sum = %.10g\n", c4 / iters, s4 / iters);
    free(A); free(W); free(sum);
    return 0;
}
