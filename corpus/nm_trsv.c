// corpus: near-miss TRSV, row loops that look like a triangular solve T x = b but are not the TRSV idiom: rows visited the wrong way round, a second store of each x[i], b read through a pivoting permutation, a Gauss-Seidel sweep over the full row, a row multiplied by the diagonal's reciprocal
// args: test=40 3 bench=1200 500
// near-miss: reading rows not yet solved, storing x[i] twice, b read through an index array, a full row (Gauss-Seidel), or s * (1 / T[i][i]) (two roundings where BLAS divides once) is no TRSV
#include <stdio.h>
#include <stdlib.h>

/* the rows counting down while each reads x[j] for j < i: the rows above are not solved
   yet, x[j] is whatever x held before (a sweep, not a solve) */
void lower_rows_down(int n, double T[n][n], const double *b, double *x)
{
    // x[j] for j < i is read before row j is done: no solve
    for (int i = n - 1; i >= 0; i--) {         // expect-none: TRSV
        double s = b[i];
        for (int j = 0; j < i; j++)            // expect: Reduction in lower_rows_down
            s -= T[i][j] * x[j];
        x[i] = s / T[i][i];
    }
}

/* a forward solve that also keeps each solved value in a second array */
void forward_and_keep(int n, double T[n][n], const double *b, double *x, double *y)
{
    // y[i] = x[i] is a second store in the row loop: not the solve alone
    for (int i = 0; i < n; i++) {              // expect-none: TRSV
        double s = b[i];
        for (int j = 0; j < i; j++)            // expect: Reduction in forward_and_keep
            s -= T[i][j] * x[j];
        x[i] = s / T[i][i];
        y[i] = x[i];
    }
}

/* L x = P b, the right-hand side read through a row permutation (as after partial
   pivoting) */
void forward_permuted(int n, double T[n][n], const int *perm, const double *b, double *x)
{
    // b is read through an index array (b[perm[i]], not at an affine address): not the
    // trsv's b, which is x itself or a vector apart from it
    for (int i = 0; i < n; i++) {              // expect-none: TRSV
        double s = b[perm[i]];
        for (int j = 0; j < i; j++)            // expect: Reduction in forward_permuted
            s -= T[i][j] * x[j];
        x[i] = s / T[i][i];
    }
}

/* one Gauss-Seidel sweep for A x = b: every row reads the whole of x but its own element,
   the values below it from this sweep and those above it from the last */
void gauss_seidel_sweep(int n, double A[n][n], const double *b, double *x)
{
    // the full row, both triangles (j skips only i): no triangular solve
    for (int i = 0; i < n; i++) {              // expect-none: TRSV
        double s = b[i];
        for (int j = 0; j < n; j++)            // expect: Reduction in gauss_seidel_sweep
            if (j != i)
                s -= A[i][j] * x[j];
        x[i] = s / A[i][i];
    }
}

/* the row's sum multiplied by the reciprocal of the diagonal: s * (1 / T[i][i]) rounds
   twice where s / T[i][i] (what BLAS computes) rounds once, so the results differ in the
   last bits; not the solve BLAS does */
void forward_reciprocal(int n, double T[n][n], const double *b, double *x)
{
    // x[i] = s * (1 / T[i][i]): not bitwise s / T[i][i]
    for (int i = 0; i < n; i++) {              // expect-none: TRSV
        double s = b[i];
        for (int j = 0; j < i; j++)            // expect: Reduction in forward_reciprocal
            s -= T[i][j] * x[j];
        x[i] = s * (1.0 / T[i][i]);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300;
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 2) n = 2;
    if (reps < 1) reps = 1;

    double (*A)[n] = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)n);
    double *x = malloc(sizeof(double) * (size_t)n);
    double *y = malloc(sizeof(double) * (size_t)n);
    int *perm = malloc(sizeof(int) * (size_t)n);
    if (!A || !b || !x || !y || !perm) return 1;

    /* strictly diagonally dominant: the diagonal 2 to 3, off the diagonal -(0.1 .. 1)/n */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i][j] = i == j ? 2.0 + (double)(i % 5) * 0.25
                             : -(double)((i * 5 + j * 3) % 10 + 1) / (10.0 * n);
    for (int i = 0; i < n; i++)
        b[i] = 1.0 + (double)(i % 7) * 0.125;
    /* a permutation: i -> (7 i + 3) mod n, made one by skipping taken rows */
    for (int i = 0; i < n; i++)
        perm[i] = -1;
    for (int i = 0; i < n; i++) {
        int k = (int)(((long)i * 7 + 3) % n);
        int taken = 1;
        while (taken) {
            taken = 0;
            for (int q = 0; q < i; q++)
                if (perm[q] == k) { taken = 1; k = (k + 1) % n; break; }
        }
        perm[i] = k;
    }

    double s_down = 0.0, s_keep = 0.0, s_copy = 0.0, s_gs = 0.0, s_perm = 0.0, s_recip = 0.0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++)
            x[i] = 0.5;
        lower_rows_down(n, A, b, x);
        for (int i = 0; i < n; i++)            // expect: Reduction in main
            s_down += x[i];

        forward_and_keep(n, A, b, x, y);
        for (int i = 0; i < n; i++) {          // expect: Reduction in main
            s_keep += x[i];
            s_copy += y[i] * (double)(1 + i % 3);
        }

        forward_permuted(n, A, perm, b, x);
        for (int i = 0; i < n; i++)            // expect: Reduction in main
            s_perm += x[i] * (double)(1 + i % 5);

        forward_reciprocal(n, A, b, x);
        for (int i = 0; i < n; i++)            // expect: Reduction in main
            s_recip += x[i] * (double)(1 + i % 3);

        for (int i = 0; i < n; i++)
            x[i] = 0.0;
        for (int sweep = 0; sweep < 3; sweep++)
            gauss_seidel_sweep(n, A, b, x);
        for (int i = 0; i < n; i++)            // expect: Reduction in main
            s_gs += x[i] * (double)(1 + i % 4);
    }

    printf("n reps = %d %d\n", n, reps);
    printf("rows down = %.10g\n", s_down);
    printf("forward kept = %.10g  copy = %.10g\n", s_keep, s_copy);
    printf("permuted = %.10g\n", s_perm);
    printf("reciprocal = %.10g\n", s_recip);
    printf("gauss-seidel = %.10g\n", s_gs);
    printf("x[0] = %.10g  x[n-1] = %.10g\n", x[0], x[n - 1]);
    free(A); free(b); free(x); free(y); free(perm);
    return 0;
}
