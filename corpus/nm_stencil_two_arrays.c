// corpus: near-miss Stencil, two outputs from one neighbourhood that are not two arrays: the records of two fixed points near a grid's edge (a boundary closure), and two factors whose outputs the caller passes as one array
// args: test=15 3 bench=1000001 2000
// near-miss: close_edge writes the records of the points n-3 and n-2 of a row through two pointers into one grid, computed before the loop over the components: not two arrays, and their stores are not proved apart (a closure at fixed points, an element-wise Map); both_factors is a stencil over two arrays, but main passes it the same array twice, which only the run-time guard sees: it must decline and run the loop as written
#include <stdio.h>
#include <stdlib.h>

#define REC 5

/* The 4th-order dissipation closed at the last two points of a row of records. */
void close_edge(int n, double *grid, const double *line, double eps)
{
    double *near = grid + (long)(n - 3) * REC;
    double *last = grid + (long)(n - 2) * REC;
    for (int m = 0; m < REC; m++) {                            // expect-none: Stencil; expect: Map in close_edge
        const double *u = line + (long)m * n;
        near[m] = near[m] - eps * (u[n - 5] - 4.0 * u[n - 4] + 6.0 * u[n - 3] - 4.0 * u[n - 2]);
        last[m] = last[m] - eps * (u[n - 4] - 4.0 * u[n - 3] + 5.0 * u[n - 2]);
    }
}

/* Two shifted copies of a line: a stencil over two arrays when they are two. */
void both_factors(int n, double c, const double *d, const double *s, double *up, double *down)
{
    for (int i = 1; i < n - 1; i++) {                          // expect: Stencil in both_factors
        up[i] = d[i] + c * (s[i + 1] - s[i - 1]);
        down[i] = d[i] - c * (s[i + 1] - s[i - 1]);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 6) n = 6;
    if (reps < 1) reps = 1;
    double *grid = malloc(sizeof(double) * (size_t)n * REC);
    double *line = malloc(sizeof(double) * (size_t)n * REC);
    double *d = malloc(sizeof(double) * (size_t)n);
    double *s = malloc(sizeof(double) * (size_t)n);
    double *out = calloc((size_t)n, sizeof(double));
    if (!grid || !line || !d || !s || !out) return 1;
    for (int t = 0; t < n * REC; t++) {
        grid[t] = (double)(t % 9) / 9.0;
        line[t] = (double)((t * 7) % 13) / 13.0;
    }
    for (int t = 0; t < n; t++) {
        d[t] = (double)(t % 4);
        s[t] = (double)((t * 3) % 5) / 5.0;
    }

    for (int r = 0; r < reps; r++) {
        close_edge(n, grid, line, 0.25);
        both_factors(n, 0.5 + r, d, s, out, out);  /* the last store of a point wins */
    }

    double sg = 0.0, so = 0.0;
    for (int t = 0; t < n * REC; t++)                          // expect: Reduction in main
        sg += grid[t] * (double)(t % 3 + 1);
    for (int t = 0; t < n; t++)                                // expect: Reduction in main
        so += out[t] * (double)(t % 7 + 1);
    printf("n = %d reps = %d\n", n, reps);
    printf("grid = %.10g\n", sg);
    printf("out = %.10g\n", so);
    free(grid); free(line); free(d); free(s); free(out);
    return 0;
}
