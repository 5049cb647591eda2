/* One element-wise loop launched again and again with scalars that change between launches
   (its coefficients, its length, where it starts) and some that do not: each launch must see
   its own values, whatever the kernel object kept from the launch before. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void update(long n, double a, double b, const double *x, double *y) {
    for (long i = 0; i < n; i++)
        y[i] = a * x[i] + b * y[i];
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int steps = argc > 2 ? atoi(argv[2]) : 12;
    double *x = malloc(sizeof(double) * (size_t)n);
    double *y = malloc(sizeof(double) * (size_t)n);
    for (long i = 0; i < n; i++) {
        x[i] = (double)(i % 17) * 0.25;
        y[i] = (double)(i % 5);
    }
    for (int t = 0; t < steps; t++) {
        double a = t % 3 == 0 ? 0.5 : 1.0 + t;  /* equal on some launches, not on others */
        long start = (t % 4) * 3;
        update(n - start - t, a, 0.75, x + start, y + start);
    }
    double sum = 0.0;
    for (long i = 0; i < n; i++)
        sum += y[i] * (double)(i % 7 + 1);
    printf("%.10e %.10e %.10e\n", sum, y[0], y[n - 1]);
    free(x);
    free(y);
    return 0;
}
