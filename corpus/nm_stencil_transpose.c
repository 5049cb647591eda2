// corpus: near-miss Stencil, symmetric part of a matrix (s = (a + a^T) / 2) on fixed-size global arrays, and a mirrored sum y[i] = x[i] + x[n-1-i]
// args: test=48 3 bench=2000 40
// near-miss: each point reads the array at a transposed or reflected position (a[j][i], x[n-1-i]), not at neighbours a constant offset away, so the nests are not stencils
#include <stdio.h>
#include <stdlib.h>

#define NMAX 2048

double a[NMAX][NMAX];
double s[NMAX][NMAX];

/* s = (a + a^T) / 2 on the leading n x n block. */
void symmetrise(int n)
{
    for (int i = 0; i < n; i++) {             // expect-none: Stencil; expect: Map in symmetrise
        for (int j = 0; j < n; j++)
            s[i][j] = 0.5 * (a[i][j] + a[j][i]);
    }
}

/* y[i] = x[i] + x[n-1-i]: each element plus its mirror image. */
void mirror_sum(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++)               // expect-none: Stencil; expect: Map in mirror_sum
        y[i] = x[i] + x[n - 1 - i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 512;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 2) n = 2;
    if (n > NMAX) n = NMAX;
    if (reps < 1) reps = 1;

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = (double)((i * 7 + j * 3) % 17) / 17.0 - 0.25 * (double)(i % 3);

    double *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    if (!x || !y) return 1;
    for (int i = 0; i < n; i++)
        x[i] = (double)((i * 11) % 23) / 23.0;

    for (int r = 0; r < reps; r++) {
        symmetrise(n);
        mirror_sum(n, x, y);
        for (int i = 0; i < n; i++)   // expect: Map in main
            x[i] = 0.5 * y[i];
    }

    double tr = 0.0, off = 0.0;
    for (int i = 0; i < n; i++) {             // expect: Reduction in main
        tr += s[i][i];
        off += s[i][n - 1 - i];
    }
    double ys = 0.0;
    for (int i = 0; i < n; i++)               // expect: Reduction in main
        ys += y[i];
    printf("n = %d reps = %d\n", n, reps);
    printf("trace = %.10g\n", tr);
    printf("antidiag = %.10g\n", off);
    printf("ysum = %.10g\n", ys);
    printf("s[1][2] = %.10g\n", s[1][2]);
    free(x);
    free(y);
    return 0;
}
