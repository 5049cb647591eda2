// corpus: Map, y[i] = a x[i] + 1 called on disjoint arrays, in place (x == y) and on overlapping windows of one buffer (y = x + 1 element), for the run-time overlap guard
// args: test=1000 3 bench=4000000 150
//
// What it is for: shift_scale is an element-wise map, but nothing in the kernel says its
// arrays are apart. Called as shift_scale(n - 1, a, buf, buf + 1), each iteration reads
// the element the previous one wrote (buf[i+1] = a buf[i] + 1, a recurrence), so an
// element-wise parallel execution gives a different answer from the sequential loop: an
// accelerated build must see the overlap at run time and keep the original loop there.
// The in-place call (x == y) reads only the element it overwrites, which is element-wise
// safe; disjoint calls may be replaced.
#include <stdio.h>
#include <stdlib.h>

/* shift_scale: y = a x + 1 */
void shift_scale(int n, double a, const double *x, double *y)
{
    for (int i = 0; i < n; i++)   // expect: Map in shift_scale
        y[i] = a * x[i] + 1.0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 5;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;

    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    double *buf = malloc((size_t)n * sizeof *buf);
    if (!x || !y || !buf)
        return 1;
    for (int i = 0; i < n; i++) {
        x[i] = (double)((i * 13) % 17) * 0.25 - 2.0;
        buf[i] = (double)((i * 7) % 11) * 0.5;
    }

    for (int it = 0; it < iters; it++) {
        /* disjoint: y = a x + 1, then x = -0.9 y + 1 */
        shift_scale(n, 0.5 + 0.0625 * (double)(it % 7), x, y);
        shift_scale(n, -0.9, y, x);
        /* in place: y = -0.75 y + 1 */
        shift_scale(n, -0.75, y, y);
        /* overlapping: buf[i+1] = buf[i] + 1 for i = 0 .. n-2, in that order, so that
           buf[i] = buf[0] + i; element-wise, buf[i] would be the old buf[i-1] + 1 */
        buf[0] = (double)(it % 5);
        shift_scale(n - 1, 1.0, buf, buf + 1);
    }

    double sx = 0.0, sy = 0.0, sb = 0.0, wb = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        sx += x[i];
        sy += y[i];
        sb += buf[i] - (double)i;
        wb += buf[i] * (double)(i % 8);
    }
    printf("n %d iters %d\n", n, iters);
    printf("disjoint x %.10g y %.10g x[1] %.10g\n", sx, sy, x[1]);
    printf("overlap sum(buf[i] - i) %.10g weighted %.10g buf[1] %.10g buf[2] %.10g buf[n-1] %.10g\n", sb, wb, buf[1], buf[2],
           buf[n - 1]);
    return 0;
}
