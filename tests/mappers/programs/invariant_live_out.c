/* Loops that store a scalar global on every trip, as NAS BT's block solvers set
   `tmp1 = dt * tx1` at the top of each point: licm moves the store after the loop,
   which then uses a value of the loop. `factor`'s address is taken (sscanf), so no
   analysis can keep it out of the arrays' reach: the guard checks at run time that the
   arrays written are apart from it.

   args: N SEED [ALIASED]: with ALIASED, `smooth_into` also writes into `params`, over
   `factor` itself, so every point after the first reads another factor and the value
   after the loop is not the one computed again: the guard must keep the original code. */
#include <stdio.h>
#include <stdlib.h>

static double params[6] = {0.0, 0.5, 0.0, 0.0, 0.0, 0.0};
#define factor params[1]
static double scale, last;

/* scale is factor * 0.25 in every iteration: recomputed after the kernel. */
void smooth(int n, const double *in, double *out)
{
    for (int i = 1; i < n - 1; i++) {
        scale = factor * 0.25;
        out[i] = scale * (in[i - 1] + 2.0 * in[i] + in[i + 1]);
    }
}

/* The same into an output that may be factor's own bytes. */
void smooth_into(int n, const double *in, double *out)
{
    for (int i = 1; i < n - 1; i++) {
        scale = factor * 0.5 + 1.0;
        out[i] = scale * (in[i - 1] - in[i + 1]);
    }
}

/* last is the last point's value: it changes with the iteration, nothing to recompute. */
void smooth_last(int n, const double *in, double *out)
{
    for (int i = 1; i < n - 1; i++) {
        last = in[i - 1] + in[i + 1];
        out[i] = 0.5 * last;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    int aliased = argc > 3 && atoi(argv[3]) != 0;
    if (argc > 4)
        sscanf(argv[4], "%lf", &factor);
    double *in = malloc(sizeof(double) * (size_t)(n + 2));
    double *out = calloc((size_t)(n + 2), sizeof(double));
    for (int i = 0; i < n + 2; i++) {
        seed = seed * 1103515245u + 12345u;
        in[i] = (double)(seed >> 16 & 1023) / 64.0;
    }
    smooth(n, in, out);
    printf("smooth %.10g %.10g\n", out[n / 2], scale);
    if (aliased && n >= 6) {
        smooth_into(6, in, params);
        printf("aliased %.10g %.10g %.10g\n", params[1], params[4], scale);
        factor = 0.5;
    }
    smooth_into(n, in, out);
    printf("into %.10g %.10g\n", out[n / 2], scale);
    smooth_last(n, in, out);
    printf("last %.10g %.10g\n", out[n / 2], last);
    free(in);
    free(out);
    return 0;
}
