/* Time steps of a smoothing stencil, with the host reading the arrays between steps. */
#include <stdio.h>
#include <stdlib.h>
#include "kernels.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int steps = argc > 2 ? atoi(argv[2]) : 10;
    double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    for (int i = 0; i < n; i++)
        a[i] = b[i] = (double)((i * 37) % 101) / SCALE;
    for (int t = 0; t < steps; t++) {
        smooth(n, a, b);
        smooth(n, b, a);
        if (t % 3 == 0)
            printf("step %d: a[n/2] = %.10f\n", t, a[n / 2]);
    }
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += a[i];
    printf("total = %.10f\n", total);
    printf("dot = %.10f\n", dot(n, a, b));
    free(a);
    free(b);
    return 0;
}
