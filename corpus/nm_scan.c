// corpus: near-miss Scan, loops that carry a running value and store it but are no prefix sum: a segmented total reset by a flag, a first-order linear recurrence, a total written back to one place every trip, totals scattered to data-chosen slots; next to one true scan
// near-miss: segment_totals resets its total under a condition, so each element is the sum of its segment only; smooth_recurrence scales the previous output (out[i] = c out[i-1] + in[i]), a linear recurrence, not a prefix of one associative fold of the inputs; total_writeback stores the running total to the same element every trip, so only the last total survives (a reduction written back, as red_memory.c's *total += a[i], not a scan); scatter_totals stores the running total at an index read from data, so the prefixes do not land in order
// args: test=1000 3 bench=2000000 60
#include <stdio.h>
#include <stdlib.h>

/* segment_totals: y[i] = x[j] + ... + x[i], j the last index <= i with flag[j] set (or 0) */
void segment_totals(const int *flag, const double *x, double *y, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {   // expect-none: Scan
        if (flag[i])
            s = 0.0;
        s += x[i];
        y[i] = s;
    }
}

/* smooth_recurrence: out[0] = in[0], out[i] = c out[i-1] + in[i] */
void smooth_recurrence(const double *in, double *out, double c, int n)
{
    out[0] = in[0];
    for (int i = 1; i < n; i++)   // expect-none: Scan
        out[i] = out[i - 1] * c + in[i];
}

/* total_writeback: *last = x[0] + ... + x[n-1], stored after every element */
void total_writeback(const double *x, double *last, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {   // expect-none: Scan; expect: Reduction in total_writeback
        s += x[i];
        *last = s;
    }
}

/* scatter_totals: out[perm[i]] = x[0] + ... + x[i] */
void scatter_totals(const int *perm, const double *x, double *out, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {   // expect-none: Scan
        s += x[i];
        out[perm[i]] = s;
    }
}

/* cumulative: a true scan, c[i] = x[0] + ... + x[i] */
void cumulative(const double *x, double *c, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Scan in cumulative
        s += x[i];
        c[i] = s;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;

    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    double *r = malloc((size_t)n * sizeof *r), *sc = malloc((size_t)n * sizeof *sc);
    double *c = malloc((size_t)n * sizeof *c);
    int *flag = malloc((size_t)n * sizeof *flag), *perm = malloc((size_t)n * sizeof *perm);
    if (!x || !y || !r || !sc || !c || !flag || !perm)
        return 1;
    unsigned seed = 4242u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        x[i] = 0.25 + (double)((seed >> 16) % 997u) * 0.001;
        flag[i] = ((seed >> 24) % 37u) == 0u;
        perm[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {                  /* Fisher-Yates shuffle */
        seed = seed * 1664525u + 1013904223u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }

    double last = 0.0, lasts = 0.0;
    for (int it = 0; it < iters; it++) {
        double k = 0.5 + 0.125 * (double)(it % 3);
        x[(it * 7919) % n] += 0.125;                   /* each pass sees different inputs */
        flag[(it * 31) % n] ^= 1;
        segment_totals(flag, x, y, n);
        smooth_recurrence(x, r, k, n);
        total_writeback(x, &last, n);
        scatter_totals(perm, x, sc, n);
        cumulative(x, c, n);
        lasts += last;
    }

    double sy = 0.0, sr = 0.0, ss = 0.0, scum = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        sy += y[i];
        sr += r[i];
        ss += sc[i];
        scum += c[i];
    }
    printf("n %d iters %d\n", n, iters);
    printf("segments y[n-1] %.10g sum %.10g\n", y[n - 1], sy);
    printf("recurrence r[n-1] %.10g sum %.10g\n", r[n - 1], sr);
    printf("writeback last %.10g sum of lasts %.10g\n", last, lasts);
    printf("scatter sc[0] %.10g sc[n-1] %.10g sum %.10g\n", sc[0], sc[n - 1], ss);
    printf("cumulative c[n-1] %.10g sum %.10g\n", c[n - 1], scum);
    free(x);
    free(y);
    free(r);
    free(sc);
    free(c);
    free(flag);
    free(perm);
    return 0;
}
