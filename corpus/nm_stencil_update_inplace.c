// corpus: stencils marked in place, never replaced, updates that read what other points write: a Gauss-Seidel relaxation of every component of a grid of records, a forward update a[i] += a[i+1], and records updated from the next record's fields
// args: test=24 3 bench=400 40
#include <stdio.h>
#include <stdlib.h>

#define MAXN 402

static double (*g)[MAXN][4];

/* Gauss-Seidel: every component relaxed towards the mean of its west and south
   neighbours, which this sweep has already updated. */
void relax_components(int n)
{
    for (int j = 1; j < n; j++) {                              // expect: Stencil in relax_components (in place)
        for (int i = 1; i < n; i++)
            for (int m = 0; m < 4; m++)
                g[j][i][m] = g[j][i][m] + 0.25 * (g[j][i - 1][m] + g[j - 1][i][m] - 2.0 * g[j][i][m]);
    }
}

/* a[i] += a[i+1] - a[i-1]: a[i-1] is already new when a[i] is computed. */
void forward_update(int n, double *a)
{
    for (int i = 1; i < n - 1; i++)                           // expect: Stencil in forward_update (in place)
        a[i] = a[i] + 0.5 * (a[i + 1] - a[i - 1]);
}

/* Each record's first field from the next record's second field and the previous
   record's third: those are fields other iterations write. */
void shift_fields(int n)
{
    for (int j = 0; j < n; j++) {                              // expect: Stencil in shift_fields (in place)
        for (int i = 1; i < n - 1; i++) {
            g[j][i][0] = g[j][i][0] + g[j][i + 1][1];
            g[j][i][1] = g[j][i][1] - g[j][i - 1][0];
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int steps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (n > MAXN) n = MAXN;
    if (steps < 1) steps = 1;
    g = malloc(sizeof(double) * MAXN * MAXN * 4);
    double *a = malloc(sizeof(double) * (size_t)n);
    if (!g || !a) return 1;
    for (int j = 0; j < MAXN; j++)
        for (int i = 0; i < MAXN; i++)
            for (int m = 0; m < 4; m++)
                g[j][i][m] = (double)((j * 3 + i * 5 + m * 7) % 13) / 13.0;
    for (int i = 0; i < n; i++)
        a[i] = (double)(i % 9) / 9.0;

    for (int s = 0; s < steps; s++) {
        relax_components(n);
        forward_update(n, a);
        shift_fields(n);
    }

    double sum = 0.0;
    const double *all = &g[0][0][0];
    for (long t = 0; t < (long)MAXN * MAXN * 4; t++)           // expect: Reduction in main
        sum += all[t];
    double sa = 0.0;
    for (int i = 0; i < n; i++)                                // expect: Reduction in main
        sa += a[i];
    printf("n = %d steps = %d\n", n, steps);
    printf("sum g = %.10g\n", sum);
    printf("sum a = %.10g\n", sa);
    printf("g[2][3] = %.10g %.10g\n", g[2][3][0], g[2][3][1]);
    free(g); free(a);
    return 0;
}
