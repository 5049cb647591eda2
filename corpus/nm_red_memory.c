// corpus: near-miss Reduction, totals kept in memory whose running value is used, an accumulator array read again in the same sweep, and sums into an element chosen by the loop counter
// args: test=1000 3 bench=4000000 60
// near-miss: running_total stores each partial total, capped_total tests it, normalise reads the accumulators while still summing into them, and phase_sums adds into acc[i % 4], an element that moves with the loop: none is a sum whose only result is its final value
#include <stdio.h>
#include <stdlib.h>

/* out[i] = a[0] + ... + a[i], the total kept behind a pointer */
void running_total(const double *a, double *out, int n, double *tot)
{
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        *tot += a[i];
        out[i] = *tot;
    }
}

/* counts the elements added before the total passes lim, and keeps adding */
int capped_total(const double *a, int n, double lim, double *tot)
{
    int over = 0;
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        *tot += a[i];
        if (*tot > lim)
            over++;
    }
    return over;
}

/* y[i][m] = x[i][m] / (x[0][m] + ... + x[i][m]): the sums are read while they grow */
void normalise(int n, const double (*x)[4], double (*y)[4], double acc[4])
{
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        for (int m = 0; m < 4; m++)   // expect: Map in normalise
            acc[m] += x[i][m];
        for (int m = 0; m < 4; m++)   // expect: Map in normalise
            y[i][m] = x[i][m] / acc[m];
    }
}

/* acc[p] = sum of a[i] over i % 4 == p */
void phase_sums(const double *a, int n, double acc[4])
{
    for (int i = 0; i < n; i++)                   // expect-none: Reduction
        acc[i % 4] += a[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;

    double *a = malloc((size_t)n * sizeof *a);
    double *out = malloc((size_t)n * sizeof *out);
    double (*x)[4] = malloc((size_t)n * sizeof *x);
    double (*y)[4] = malloc((size_t)n * sizeof *y);
    if (!a || !out || !x || !y) return 1;
    for (int i = 0; i < n; i++) {
        a[i] = 1.0 + (double)((i * 7) % 13) / 13.0;
        for (int m = 0; m < 4; m++)
            x[i][m] = 1.0 + (double)((i * 3 + m * 5) % 11) / 11.0;
    }

    double tot = 0.0, cap = 0.0, acc[4] = {0.0, 0.0, 0.0, 0.0}, ph[4] = {0.0, 0.0, 0.0, 0.0};
    int over = 0;
    for (int r = 0; r < reps; r++) {
        running_total(a, out, n, &tot);
        over += capped_total(a, n, 0.5 * (double)n, &cap);
        normalise(n, (const double (*)[4])x, y, acc);
        phase_sums(a, n, ph);
    }

    double so = 0.0, sy = 0.0;
    for (int i = 0; i < n; i++)                   // expect: Reduction in main
        so += out[i];
    for (int i = 0; i < n; i++)
        for (int m = 0; m < 4; m++)               // expect: Reduction in main
            sy += y[i][m];
    printf("n = %d reps = %d\n", n, reps);
    printf("tot = %.10g out = %.10g\n", tot, so);
    printf("cap = %.10g over = %d\n", cap, over);
    printf("acc = %.10g %.10g %.10g %.10g y = %.10g\n", acc[0], acc[1], acc[2], acc[3], sy);
    printf("phases = %.10g %.10g %.10g %.10g\n", ph[0], ph[1], ph[2], ph[3]);
    free(a);
    free(out);
    free(x);
    free(y);
    return 0;
}
