// corpus: near-miss Reduction, a sum whose reads are clipped by a limit read from memory on every element, and one clipped to a running maximum
// args: test=1000 3 bench=4000000 60
// near-miss: the clipping bound is data (lim[i], or the largest index seen so far), not fixed while the loop runs, so the reads are at no affine or clamped-affine index
#include <stdio.h>
#include <stdlib.h>

/* sum of a[min(i, lim[i])] */
double sum_limited(const double *a, const int *lim, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        int j = i < lim[i] ? i : lim[i];
        s += a[j];
    }
    return s;
}

/* sum of a[min(i, top)] where top is the largest idx[k] seen up to i */
double sum_below_top(const double *a, const int *idx, int n)
{
    double s = 0.0;
    int top = 0;
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        top = idx[i] > top ? idx[i] : top;
        int j = i < top ? i : top;
        s += a[j];
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;
    double *a = malloc((size_t)n * sizeof *a);
    int *lim = malloc((size_t)n * sizeof *lim);
    int *idx = malloc((size_t)n * sizeof *idx);
    if (!a || !lim || !idx) return 1;
    for (int i = 0; i < n; i++) {
        a[i] = (double)((i * 17) % 23) / 23.0;
        lim[i] = (i * 7) % n;
        idx[i] = (i * 11) % n;
    }
    double s1 = 0.0, s2 = 0.0;
    for (int r = 0; r < reps; r++) {             // expect: Reduction in main
        s1 += sum_limited(a, lim, n);
        s2 += sum_below_top(a, idx, n);
    }
    printf("n = %d reps = %d\n", n, reps);
    printf("limited = %.10g below top = %.10g\n", s1, s2);
    free(a);
    free(lim);
    free(idx);
    return 0;
}
