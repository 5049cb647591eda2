// corpus: Reduction and Histogram in loops that also store elsewhere: Gaussian pairs by acceptance-rejection (sums of the deviates, a histogram of their size, the last radius kept in a global), a norm that also keeps its maximum through a pointer
// args: test=4000 2 bench=40000000 3
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NQ 16

double last_radius;

/* For each accepted pair (x1, x2) in the unit disc: the Gaussian deviates (t3, t4),
   their sums and a histogram of max(|t3|, |t4|). Every trial's radius goes to a global. */
void gauss_pairs(int n, const double *x, double *q, double *sums)
{
    double sx = 0.0, sy = 0.0;
    for (int i = 0; i < n; i++) {                 // expect: Histogram in gauss_pairs
        double x1 = 2.0 * x[2 * i] - 1.0;
        double x2 = 2.0 * x[2 * i + 1] - 1.0;
        double t1 = x1 * x1 + x2 * x2;
        last_radius = t1;
        if (t1 <= 1.0 && t1 > 1.0e-6) {
            double t2 = sqrt(-2.0 * log(t1) / t1);
            double t3 = x1 * t2;
            double t4 = x2 * t2;
            int l = (int)fmax(fabs(t3), fabs(t4));
            q[l] += 1.0;
            sx = sx + t3;
            sy = sy + t4;
        }
    }
    sums[0] = sx;
    sums[1] = sy;
}

/* The sum of squares of r, and its largest magnitude kept in *mx as it goes. */
double norm_and_max(int n, const double *r, double *mx)
{
    double s = 0.0;
    *mx = 0.0;
    for (int i = 0; i < n; i++) {                 // expect: Reduction in norm_and_max
        s = s + r[i] * r[i];
        double a = fabs(r[i]);
        if (a > *mx)
            *mx = a;
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int reps = argc > 2 ? atoi(argv[2]) : 2;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;

    double *x = malloc((size_t)n * 2 * sizeof *x);
    double *r = malloc((size_t)n * sizeof *r);
    if (!x || !r) return 1;
    unsigned int seed = 12345u;
    for (int i = 0; i < 2 * n; i++) {
        seed = seed * 1103515245u + 12345u;
        x[i] = (double)((seed >> 8) & 0xffff) / 65536.0;
    }
    for (int i = 0; i < n; i++)
        r[i] = (double)((i * 37) % 101) / 101.0 - 0.5;

    double q[NQ], sums[2], mx = 0.0, s = 0.0;
    for (int l = 0; l < NQ; l++)
        q[l] = 0.0;
    for (int k = 0; k < reps; k++) {
        gauss_pairs(n, x, q, sums);
        s += norm_and_max(n, r, &mx);
    }

    double gc = 0.0;
    for (int l = 0; l < NQ; l++)                  // expect: Reduction in main
        gc = gc + q[l];
    printf("n = %d reps = %d\n", n, reps);
    printf("pairs = %.10g sx = %.10g sy = %.10g\n", gc, sums[0], sums[1]);
    for (int l = 0; l < 6; l++)
        printf("q[%d] = %.10g\n", l, q[l]);
    printf("last radius = %.10g\n", last_radius);
    printf("norm = %.10g max = %.10g\n", s, mx);
    free(x);
    free(r);
    return 0;
}
