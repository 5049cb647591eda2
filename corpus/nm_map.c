// corpus: near-miss Map, element-wise-looking loops that are not maps: a first-order recurrence, a value carried between iterations, an impure call in the body, an early exit; next to one true map
// near-miss: recurrence reads a[i-1], which the previous iteration stored; smooth_carry carries t from one iteration to the next; jitter calls rand_like(), which writes a global; double_until_negative leaves the loop early on a value it reads, so its trip count is not fixed when it starts
// args: test=1000 3 bench=4000000 60
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

unsigned long rng_state = 12345UL;
long rng_calls = 0;

/* rand_like: a linear congruential generator; advances the global state */
__attribute__((noinline)) int rand_like(void)
{
    rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
    rng_calls++;
    return (int)((rng_state >> 33) % 1000UL);
}

/* recurrence: a[i] = c a[i-1] + x[i] (a first-order linear filter, in place).
   Not a map: a[i-1] is the value the previous iteration just stored. */
void recurrence(int n, double c, const double *x, double *a)
{
    a[0] = x[0];
    for (int i = 1; i < n; i++)   // expect-none: Map
        a[i] = a[i - 1] * c + x[i];
}

/* smooth_carry: exponential smoothing, the running value kept in a local.
   Not a map: t is carried from one iteration to the next. */
void smooth_carry(int n, const double *x, double *y)
{
    double t = 0.0;
    for (int i = 0; i < n; i++) {   // expect-none: Map
        t = t * 0.5 + x[i];
        y[i] = t;
    }
}

/* jitter: y[i] = x[i] times a pseudo-random factor.
   Not a map: rand_like() writes a global, so the order of the calls matters. */
void jitter(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++)   // expect-none: Map
        y[i] = x[i] * (double)rand_like() * 0.001;
}

/* double_until_negative: y[i] = 2 x[i] up to the first negative x[i]; returns how many.
   Not a map: the loop leaves early on a value it reads. */
int double_until_negative(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++) {   // expect-none: Map
        if (x[i] < 0.0)
            break;
        y[i] = 2.0 * x[i];
    }
    return i;
}

/* capped_blend: a true map, y = w min(x, cap) + (1 - w) z */
void capped_blend(int n, double w, double cap, const double *x, const double *z, double *y)
{
    for (int i = 0; i < n; i++)   // expect: Map in capped_blend
        y[i] = w * fmin(x[i], cap) + (1.0 - w) * z[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 8)
        n = 8;
    if (iters < 1)
        iters = 1;

    double *x = malloc((size_t)n * sizeof *x), *z = malloc((size_t)n * sizeof *z);
    double *a = malloc((size_t)n * sizeof *a), *s = malloc((size_t)n * sizeof *s);
    double *jt = malloc((size_t)n * sizeof *jt), *d = malloc((size_t)n * sizeof *d);
    double *y = malloc((size_t)n * sizeof *y);
    if (!x || !z || !a || !s || !jt || !d || !y)
        return 1;
    for (int i = 0; i < n; i++) {
        x[i] = 0.25 + (double)((i * 37) % 101) / 101.0;
        z[i] = cos(0.01 * (double)i);
        d[i] = 0.0;
    }
    x[n - n / 5] = -1.0;   /* where double_until_negative stops */

    long stopped = 0;
    for (int it = 0; it < iters; it++) {
        double c = 0.5 + 0.1 * (double)(it % 3);
        recurrence(n, c, x, a);
        smooth_carry(n, x, s);
        jitter(n, x, jt);
        stopped += double_until_negative(n, x, d);
        capped_blend(n, 0.75, 0.9, x, z, y);
        x[it % n] += 0.125;
    }

    double sa = 0.0, ss = 0.0, sj = 0.0, sd = 0.0, sy = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        sa += a[i];
        ss += s[i];
        sj += jt[i];
        sd += d[i];
        sy += y[i];
    }
    printf("n %d iters %d stopped %ld calls %ld\n", n, iters, stopped, rng_calls);
    printf("recurrence %.10g a[n-1] %.10g\n", sa, a[n - 1]);
    printf("carry %.10g s[n-1] %.10g\n", ss, s[n - 1]);
    printf("jitter %.10g j[n/2] %.10g\n", sj, jt[n / 2]);
    printf("until negative %.10g map %.10g y[n/3] %.10g\n", sd, sy, y[n / 3]);
    free(x);
    free(z);
    free(a);
    free(s);
    free(jt);
    free(d);
    free(y);
    return 0;
}
