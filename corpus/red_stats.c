// corpus: mean and variance of a window of a series (sum and sum of squares in one loop, bounds in struct fields)
// args: test=5000 3 bench=2000000 1200
#include <stdio.h>
#include <stdlib.h>

struct series {
    const double *v;
    int begin; /* first index of the window */
    int end;   /* one past the last index */
};

/* moments: mean and (population) variance of s->v[begin..end) */
void moments(const struct series *s, double *mean, double *var)
{
    double sum = 0.0, sq = 0.0;
    for (int i = s->begin; i < s->end; i++) {   // expect: Reduction in moments
        sum += s->v[i];
        sq += s->v[i] * s->v[i];
    }
    double m = sum / (double)(s->end - s->begin);
    *mean = m;
    *var = sq / (double)(s->end - s->begin) - m * m;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 64)
        n = 64;
    if (iters < 1)
        iters = 1;

    double *v = malloc((size_t)n * sizeof *v);
    double *mean = malloc((size_t)iters * sizeof *mean);
    double *var = malloc((size_t)iters * sizeof *var);
    if (!v || !mean || !var)
        return 1;
    for (int i = 0; i < n; i++)
        v[i] = 10.0 + (double)(((long)i * 7919) % 1000) * 0.01 + (double)(i % 3);

    /* sliding windows: each call drops a few samples at the front and back */
    for (int it = 0; it < iters; it++) {
        struct series s = { v, it % 32, n - (it % 29) };
        moments(&s, &mean[it], &var[it]);
    }

    double cm = 0.0, cv = 0.0;
    for (int it = 0; it < iters; it++) {   // expect: Reduction in main
        cm += mean[it];
        cv += var[it];
    }
    printf("window0 mean %.10g var %.10g\n", mean[0], var[0]);
    printf("sum of means %.10g sum of variances %.10g\n", cm, cv);
    free(v);
    free(mean);
    free(var);
    return 0;
}
