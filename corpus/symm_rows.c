// corpus: SYMM without scales, C = A*B + C with A symmetric read from its lower triangle, written by rows of A, on tables of row pointers (double **), the bounds macros, the sum's factors A first, C halved between repetitions
// args: test=1 bench=56
#include <stdio.h>
#include <stdlib.h>

#define NROWS 400
#define NCOLS 360

/* C <- A * B + C, C and B NROWS x NCOLS, A the NROWS x NROWS symmetric matrix of which
   only the lower triangle (the diagonal included) is read; every matrix a table of row
   pointers. */
void symm_rows(double **C, double **A, double **B)
{
    for (int i = 0; i < NROWS; i++) {          // expect: SYMM in symm_rows
        for (int j = 0; j < NCOLS; j++) {
            double temp2 = 0.0;
            for (int k = 0; k < i; k++) {
                C[k][j] += B[i][j] * A[i][k];
                temp2 += A[i][k] * B[k][j];
            }
            C[i][j] = C[i][j] + B[i][j] * A[i][i] + temp2;
        }
    }
}

/* rows row pointers into one block, rows ld elements apart */
static double **rows_of(double *block, int rows, int ld)
{
    double **r = malloc((size_t)rows * sizeof *r);
    if (!r) return NULL;
    for (int i = 0; i < rows; i++)
        r[i] = block + (size_t)i * ld;
    return r;
}

int main(int argc, char **argv)
{
    /* the sizes are fixed at compile time; the argument repeats the product */
    int reps = argc > 1 ? atoi(argv[1]) : 4;
    if (reps < 1) reps = 1;
    int lda = NROWS + 2, ldb = NCOLS + 1, ldc = NCOLS + 4;

    double *blockA = malloc((size_t)NROWS * lda * sizeof *blockA);
    double *blockB = malloc((size_t)NROWS * ldb * sizeof *blockB);
    double *blockC = malloc((size_t)NROWS * ldc * sizeof *blockC);
    if (!blockA || !blockB || !blockC) return 1;
    double **A = rows_of(blockA, NROWS, lda);
    double **B = rows_of(blockB, NROWS, ldb);
    double **C = rows_of(blockC, NROWS, ldc);
    if (!A || !B || !C) return 1;

    /* A's strictly lower triangle from a small LCG, positive and at most 1/NROWS, the
       diagonal 0.5 to 1; the strictly upper triangle and the padding hold values the
       product must not read */
    unsigned lcg = 4321u;
    for (int i = 0; i < NROWS; i++)
        for (int k = 0; k < lda; k++) {
            lcg = lcg * 1103515245u + 12345u;
            A[i][k] = k < i ? (double)(1 + (lcg >> 16) % 64) / (64.0 * NROWS)
                    : k == i ? 0.5 + (double)(i % 9) / 16.0
                    : k < NROWS ? -30.0 : 1.0e30;
        }
    for (int i = 0; i < NROWS; i++) {
        for (int j = 0; j < ldb; j++)
            B[i][j] = j < NCOLS ? 0.2 + (double)((i * 7 + j * 2) % 23) / 23.0 : -1.0e30;
        for (int j = 0; j < ldc; j++)
            C[i][j] = j < NCOLS ? 1.0 + (double)((i * 3 + j) % 5) * 0.25 : 2.0;
    }

    /* C <- (A B + C) / 2: C tends to A B, its values stay between 0.1 and 4 */
    for (int r = 0; r < reps; r++) {
        symm_rows(C, A, B);
        for (int i = 0; i < NROWS; i++)   // expect: Map in main
            for (int j = 0; j < NCOLS; j++)
                C[i][j] *= 0.5;
    }

    double total = 0.0, weighted = 0.0;
    for (int i = 0; i < NROWS; i++)
        for (int j = 0; j < NCOLS; j++) {      // expect: Reduction in main
            total += C[i][j];
            weighted += C[i][j] * (double)(1 + (i + 2 * j) % 6);
        }
    double pad = 0.0;
    for (int i = 0; i < NROWS; i++)            // expect: Reduction in main
        pad += C[i][NCOLS] + C[i][ldc - 1];

    printf("rows cols reps = %d %d %d\n", NROWS, NCOLS, reps);
    printf("sum = %.10g\n", total);
    printf("weighted = %.10g\n", weighted);
    printf("padding = %.10g\n", pad);
    printf("C[0][0] = %.10g  C[rows/2][cols/3] = %.10g  C[rows-1][cols-1] = %.10g\n",
           C[0][0], C[NROWS / 2][NCOLS / 3], C[NROWS - 1][NCOLS - 1]);
    free(A); free(B); free(C); free(blockA); free(blockB); free(blockC);
    return 0;
}
