/* Maps whose float results are computed in double and rounded back (a float divided by
   a double, as an FFT's normalisation writes it), beside a conversion that computes
   nothing (no map). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void normalise(unsigned n, float *re, float *im, double denom)
{
    for (unsigned i = 0; i < n; i++) {
        re[i] /= denom;
        im[i] /= denom;
    }
}

__attribute__((noinline)) void rescale_rows(int rows, int cols, int ld, float *a, double scale)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            a[i * ld + j] = (float)((double)a[i * ld + j] * scale);
}

__attribute__((noinline)) void narrow(int n, const double *x, float *y)
{
    for (int i = 0; i < n; i++)
        y[i] = (float)x[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    float *re = malloc(sizeof(float) * n), *im = malloc(sizeof(float) * n);
    float *y = malloc(sizeof(float) * n);
    double *x = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        re[i] = (float)((seed >> 8) % 1000) / 7.0f - 60.0f;
        im[i] = (float)((seed >> 4) % 997) / 3.0f;
        x[i] = (double)re[i] / 3.0;
    }
    normalise((unsigned)n, re, im, (double)n / 3.0);
    rescale_rows(n / 10, 7, 10, re, 1.0 / 3.0);
    narrow(n, x, y);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        printf("%d %a %a %a\n", i, (double)re[i], (double)im[i], (double)y[i]);
    for (int i = 0; i < n; i++)
        s += re[i];
    fprintf(stderr, "%g\n", s);
    return 0;
}
