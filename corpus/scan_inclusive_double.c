// corpus: Scan, inclusive prefixes with the running value in a register: a running total of doubles (running_total), a running count of flags (int, running_count) and a running product of survival factors (double, survival)
// args: test=1000 3 bench=4000000 120
#include <stdio.h>
#include <stdlib.h>

/* running_total: y[i] = x[0] + ... + x[i] */
void running_total(const double *x, double *y, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Scan in running_total
        s += x[i];
        y[i] = s;
    }
}

/* running_count: rank[i] = flag[0] + ... + flag[i], the 1-based rank of each selected element */
void running_count(const int *flag, int *rank, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++) {   // expect: Scan in running_count
        c += flag[i];
        rank[i] = c;
    }
}

/* survival: surv[i] = keep[0] * ... * keep[i], keep[i] = 1 - hazard[i] */
void survival(const double *keep, double *surv, int n)
{
    double p = 1.0;
    for (int i = 0; i < n; i++) {   // expect: Scan in survival
        p *= keep[i];
        surv[i] = p;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 1)
        n = 1;
    if (iters < 1)
        iters = 1;

    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    double *keep = malloc((size_t)n * sizeof *keep), *surv = malloc((size_t)n * sizeof *surv);
    int *flag = malloc((size_t)n * sizeof *flag), *rank = malloc((size_t)n * sizeof *rank);
    if (!x || !y || !keep || !surv || !flag || !rank)
        return 1;
    unsigned seed = 7u;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        x[i] = 0.125 + (double)((seed >> 16) % 1000u) * 0.001;         /* 0.125 .. 1.124 */
        keep[i] = 1.0 - (double)((seed >> 4) % 1000u) * 1.0e-9;        /* survival factors */
        flag[i] = ((seed >> 20) & 3u) == 0u;
    }

    double tails = 0.0;
    for (int it = 0; it < iters; it++) {
        x[(it * 7919) % n] += 0.25;                  /* each pass sees different inputs */
        keep[(it * 104729) % n] *= 0.999;
        flag[(it * 31) % n] ^= 1;
        running_total(x, y, n);
        running_count(flag, rank, n);
        survival(keep, surv, n);
        tails += y[n - 1] + surv[n - 1];
    }

    double sy = 0.0, sp = 0.0;
    long sr = 0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        sy += y[i];
        sp += surv[i];
        sr += rank[i];
    }
    printf("n %d iters %d\n", n, iters);
    printf("y[n/2] %.10g y[n-1] %.10g sum %.10g\n", y[n / 2], y[n - 1], sy);
    printf("rank[n/2] %d rank[n-1] %d sum %ld\n", rank[n / 2], rank[n - 1], sr);
    printf("surv[n/2] %.10g surv[n-1] %.10g sum %.10g\n", surv[n / 2], surv[n - 1], sp);
    printf("tails %.10g\n", tails);
    free(x);
    free(y);
    free(keep);
    free(surv);
    free(flag);
    free(rank);
    return 0;
}
