// corpus: near-miss GEMV, matrix-vector products that read the vector they write (in place, Gauss-Seidel order), beside a true y += A*x whose row loop also clears another array
// args: test=64 2 bench=2000 300
// near-miss: inplace_acc and inplace_dot read y while they write it, so a row sees the rows before it already updated (and inplace_acc reads its own running total at j == i): no matrix-vector product of the old y; clear_and_mv's row loop also clears z (all restrict): its rows are Reductions, the nest no GEMV
#include <stdio.h>
#include <stdlib.h>

/* y[i] += sum_j A[i][j] * y[j], the sum kept in y[i]: the product reads the vector it
   updates, in Gauss-Seidel order, and at j == i the running total itself. */
void inplace_acc(int n, const double *A, double *y)
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        for (int j = 0; j < n; j++)            // expect-none: Reduction
            y[i] += A[i * n + j] * y[j];
    }
}

/* y[i] = sum_j A[i][j] * y[j] with the sum in a local: each row is a true dot product
   (nothing in it writes y), but rows after the first read entries already replaced. */
void inplace_dot(int n, const double *A, double *y)
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        double s = 0.0;
        for (int j = 0; j < n; j++)            // expect: Reduction in inplace_dot
            s += A[i * n + j] * y[j];
        y[i] = s;
    }
}

/* y += A x, and z is cleared on the way: z[i] = 0 writes neither y nor what the product
   reads, but the row loop of a dot-product GEMV holds the product's stores only, so the
   nest is no GEMV; each row's sum is a Reduction. */
void clear_and_mv(int n, const double *restrict A, const double *restrict x,
                  double *restrict y, double *restrict z)
{
    for (int i = 0; i < n; i++) {              // expect-none: GEMV
        z[i] = 0.0;
        for (int j = 0; j < n; j++)            // expect: Reduction in clear_and_mv
            y[i] += A[i * n + j] * x[j];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 400;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    size_t nn = (size_t)n * (size_t)n;

    double *A = malloc(nn * sizeof *A);
    double *x = malloc((size_t)n * sizeof *x);
    double *u = malloc((size_t)n * sizeof *u);
    double *v = malloc((size_t)n * sizeof *v);
    double *y = malloc((size_t)n * sizeof *y);
    double *z = malloc((size_t)n * sizeof *z);
    if (!A || !x || !u || !v || !y || !z) return 1;
    /* entries of size about 1/n with mean near zero keep the in-place sweeps bounded */
    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 6) * 0.2 - 0.4;
        for (int j = 0; j < n; j++)
            A[(size_t)i * n + j] = ((double)((i * 5 + j * 7) % 13) - 5.5) / (double)n;
    }

    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++) {
            u[i] = 1.0 + (double)(i % 4) * 0.25;
            v[i] = u[i];
            y[i] = (double)(i % 3) - 1.0;
            z[i] = -1.0;
        }
        inplace_acc(n, A, u);
        inplace_dot(n, A, v);
        clear_and_mv(n, A, x, y, z);
    }

    double su = 0.0, sv = 0.0, sy = 0.0, sz = 0.0;
    for (int i = 0; i < n; i++) {              // expect: Reduction in main
        su += u[i];
        sv += v[i];
        sy += y[i];
        sz += z[i];
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("sum u = %.10g\n", su);
    printf("sum v = %.10g\n", sv);
    printf("sum y = %.10g\n", sy);
    printf("sum z = %.10g\n", sz);
    printf("u[n-1] v[n-1] y[n-1] = %.10g %.10g %.10g\n", u[n - 1], v[n - 1], y[n - 1]);
    free(A); free(x); free(u); free(v); free(y); free(z);
    return 0;
}
