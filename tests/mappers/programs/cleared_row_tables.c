/* An i-k-j product over row tables whose output rows are cleared first: the clearing
 * loop loads its own row pointers (tests/mappers/plan/test_row_tables.py). */
#include <stdio.h>
#include <stdlib.h>
void mm(int n, double **A, double **B, double **D)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            D[i][j] = 0.0;
        for (int k = 0; k < n; k++) {
            double a = A[i][k];
            for (int j = 0; j < n; j++)
                D[i][j] += a * B[k][j];
        }
    }
}
static double **rows(int n) { double **r = malloc(n * sizeof *r); double *b = malloc((size_t)n * (n + 2) * sizeof *b); for (int i = 0; i < n; i++) { r[i] = b + (size_t)i * (n + 2); for (int j = 0; j < n; j++) r[i][j] = (i * 3 + j) % 7 - 3; } return r; }
int main(int argc, char **argv) { int n = argc > 1 ? atoi(argv[1]) : 50; double **A = rows(n), **B = rows(n), **D = rows(n); mm(n, A, B, D); double s = 0; for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) s += D[i][j] * (i + 1); printf("%.10g\n", s); return 0; }
