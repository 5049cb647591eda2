// corpus: near-miss GEMV, triangular matrix-vector products y = L*x and y = U*x: the inner loop's bound moves with the row
// args: test=64 2 bench=2500 250
// near-miss: the inner loops run over j <= i (trmv_lower) and j >= i (trmv_upper), so the nest covers a triangle, not a fixed rectangle: no GEMV; each row's inner loop, with its bounds fixed while it runs, is a dot product (a Reduction, in trmv_upper summed in y[i] itself)
#include <stdio.h>
#include <stdlib.h>

/* y = L x, L the lower triangle (diagonal included) of the n x n row-major array. */
void trmv_lower(int n, const double *L, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        double s = 0.0;
        for (int j = 0; j <= i; j++)           // expect: Reduction in trmv_lower
            s += L[i * n + j] * x[j];
        y[i] = s;
    }
}

/* y = U x, U the upper triangle (diagonal included); the sum stays in y[i], which may
   alias U or x as far as the compiler knows. */
void trmv_upper(int n, const double *U, const double *x, double *y)
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        y[i] = 0.0;
        for (int j = i; j < n; j++)            // expect: Reduction in trmv_upper
            y[i] += U[i * n + j] * x[j];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    size_t nn = (size_t)n * (size_t)n;

    double *T = malloc(nn * sizeof *T);
    double *x = malloc((size_t)n * sizeof *x);
    double *yl = malloc((size_t)n * sizeof *yl);
    double *yu = malloc((size_t)n * sizeof *yu);
    if (!T || !x || !yl || !yu) return 1;
    /* One full array: trmv_lower reads its lower triangle, trmv_upper its upper one. */
    for (int i = 0; i < n; i++) {
        x[i] = 0.25 + (double)(i % 5) * 0.125;
        for (int j = 0; j < n; j++)
            T[(size_t)i * n + j] = (double)((i * 3 + j * 8) % 15) / 15.0 - 0.3;
    }

    for (int r = 0; r < reps; r++) {
        trmv_lower(n, T, x, yl);
        trmv_upper(n, T, x, yu);
    }

    double sl = 0.0, su = 0.0, d = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        sl += yl[i];
        su += yu[i];
        d += yl[i] * yu[i];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("sum L x = %.10g\n", sl);
    printf("sum U x = %.10g\n", su);
    printf("(Lx).(Ux) = %.10g\n", d);
    printf("yl[n-1] yu[0] = %.10g %.10g\n", yl[n - 1], yu[0]);
    free(T); free(x); free(yl); free(yu);
    return 0;
}
