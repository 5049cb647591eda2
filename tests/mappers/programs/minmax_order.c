/* Floating-point max and min reductions whose result depends on the loop's order: a NaN
   among the values (a select keeps or drops it depending on where it comes), and zeros of
   both signs (+0 and -0 compare equal, so the first or the last one met is kept).
   A sum is added in another order too, and a running sum that overflows in the loop's
   order need not in another. Arguments: n, mode (0 plain values, 1 a NaN, 2 signed
   zeros, 3 values near the largest double), position of the NaN. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double max_keep(int n, const double *x)
{
    double m = -1e300;
    for (int i = 0; i < n; i++)
        m = m > x[i] ? m : x[i];
    return m;
}

double max_take(int n, const double *x)
{
    double m = -1.0;
    for (int i = 0; i < n; i++)
        m = x[i] > m ? x[i] : m;
    return m;
}

float min_float(int n, const float *x)
{
    float m = 1e30f;
    for (int i = 0; i < n; i++)
        m = x[i] < m ? x[i] : m;
    return m;
}

double max_call(int n, const double *x)
{
    double m = -1e300;
    for (int i = 0; i < n; i++)
        m = fmax(m, x[i]);
    return m;
}

double sum(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}

static void show(const char *name, double v)
{
    printf("%s %.17g nan %d negative %d\n", name, v, isnan(v) != 0, signbit(v) != 0);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int mode = argc > 2 ? atoi(argv[2]) : 0;
    int at = argc > 3 ? atoi(argv[3]) : 0;
    double *x = malloc(sizeof(double) * (size_t)(n + 1));
    float *y = malloc(sizeof(float) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        x[i] = mode == 2 ? -1.0 - i : (double)((i * 37) % 101) - 50.0;
        if (mode == 2 && i % 7 == 3)
            x[i] = (i / 7) % 2 ? 0.0 : -0.0;
        y[i] = mode == 2 ? (float)(1 + i) : (float)x[i];
        if (mode == 2 && i % 5 == 2)
            y[i] = (i / 5) % 2 ? 0.0f : -0.0f;
    }
    for (int i = 0; mode == 3 && i < n; i++)
        x[i] = i % 4 < 2 ? 1e308 : -1e308; /* the loop's running sum overflows */
    if (mode == 1 && n > 0) {
        x[at % n] = NAN;
        y[at % n] = NAN;
    }
    show("max_keep", max_keep(n, x));
    show("max_take", max_take(n, x));
    show("min_float", min_float(n, y));
    show("max_call", max_call(n, x));
    show("sum", sum(n, x));
    free(x);
    free(y);
    return 0;
}
