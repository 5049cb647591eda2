// corpus: sums whose loops also report outliers with printf, or log each sample through an external function
// near-miss: the loop bodies have side effects besides the accumulation (an I/O call, a call that writes global state)
// args: test=1000 2 bench=4000000 150
#include <stdio.h>
#include <stdlib.h>

double trace_buf[64];
int trace_len;

/* trace: keeps the last 64 logged values (writes global state, not pure). A logging
   routine of another module: kept out of line, so that the loop calls it. */
__attribute__((noinline)) void trace(double v)
{
    trace_buf[trace_len % 64] = v;
    trace_len++;
}

/* sum_report: sum of a[i], printing every value above limit */
double sum_report(const double *a, int n, double limit)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {   // expect-none: Reduction
        s += a[i];
        if (a[i] > limit)
            printf("outlier a[%d] = %.6e\n", i, a[i]);
    }
    return s;
}

/* sum_traced: sum of a[i] * w, every term passed to trace() */
double sum_traced(const double *a, int n, double w)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {   // expect-none: Reduction
        double t = a[i] * w;
        trace(t);
        s += t;
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 2)
        n = 2;
    if (iters < 1)
        iters = 1;

    double *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return 1;
    for (int i = 0; i < n; i++)
        a[i] = (double)(i % 10) * 0.1;
    a[n / 2] = 100.0;   /* the single outlier */

    double s1 = 0.0, s2 = 0.0;
    for (int it = 0; it < iters; it++) {
        s1 = sum_report(a, n - it, 50.0);
        s2 = sum_traced(a, n - it, 1.0 + 0.5 * (double)it);
    }
    printf("sum %.10g traced %.10g\n", s1, s2);
    printf("trace count %d last %.10g\n", trace_len, trace_buf[(trace_len - 1) % 64]);
    free(a);
    return 0;
}
