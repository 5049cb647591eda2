/* Element-wise maps for the differential tests of the map mapper: two arrays updated in
 * one loop (a conjugate gradient's z and r), an update in place, a 2D map, a float map
 * calling sqrt, a map reading a global scalar on every trip, and the same kernels called
 * with arrays that overlap: exactly (an output that is also an input, point for point:
 * each work-item reads only the element it writes, so the sequential loop and a kernel
 * agree, and the kernel runs) and shifted by one element (work-items in any order would
 * give another answer: the guard must keep the original code). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double gain = 0.75;

void cg_update(int n, double alpha, const double *p, const double *q, double *z, double *r)
{
    for (int j = 0; j < n; j++) {
        z[j] = z[j] + alpha * p[j];
        r[j] = r[j] - alpha * q[j];
    }
}

void direction(int n, double beta, const double *r, double *p)
{
    for (int j = 0; j < n; j++)
        p[j] = r[j] + beta * p[j];
}

void blend(int n, int m, double *out, const double *a, const double *b, double s)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            out[i * m + j] = s * a[i * m + j] + (1.0 - s) * b[i * m + j];
}

void magnitude(int n, const float *re, const float *im, float *out)
{
    for (int i = 0; i < n; i++)
        out[i] = sqrtf(re[i] * re[i] + im[i] * im[i]);
}

void amplify(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] = gain * x[i] + 1.0;
}

static double checksum(int n, const double *v)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += v[i] * (double)(i % 7 + 1);
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int steps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 4)
        n = 4;
    double *p = malloc(sizeof(double) * (size_t)n), *q = malloc(sizeof(double) * (size_t)n);
    double *z = malloc(sizeof(double) * (size_t)n), *r = malloc(sizeof(double) * (size_t)n);
    double *grid = malloc(sizeof(double) * (size_t)n * 3);
    double *shade = malloc(sizeof(double) * (size_t)n * 3);
    float *re = malloc(sizeof(float) * (size_t)n), *im = malloc(sizeof(float) * (size_t)n);
    float *mag = malloc(sizeof(float) * (size_t)n);
    for (int i = 0; i < n; i++) {
        p[i] = 1.0 / (i + 1);
        q[i] = (i % 5) * 0.25;
        z[i] = 0.0;
        r[i] = 1.0 - (i % 3) * 0.5;
        re[i] = (float)(i % 11) - 5.0f;
        im[i] = (float)(i % 4) * 0.5f;
    }
    for (int i = 0; i < 3 * n; i++)
        grid[i] = (i % 13) * 0.125, shade[i] = (i % 5) * 0.5;
    for (int s = 0; s < steps; s++) {
        cg_update(n, 0.5 / (s + 1), p, q, z, r);
        direction(n, 0.25, r, p);
        amplify(n, r, q);
    }
    printf("z %.10g r %.10g p %.10g q %.10g\n", checksum(n, z), checksum(n, r), checksum(n, p),
           checksum(n, q));
    /* An output that is an input: z doubles as p. */
    cg_update(n, 0.5, z, q, z, r);
    printf("same %.10g %.10g\n", checksum(n, z), checksum(n, r));
    /* z as q: the loop reads q[j] after it stored z[j], the value just stored, which a
       copy of q read by a kernel does not hold: the guard keeps the original code. */
    cg_update(n, 0.5, p, z, z, r);
    printf("after %.10g %.10g\n", checksum(n, z), checksum(n, r));
    /* Overlapping by one element: each r[j] is read as p[j + 1] after it changed. */
    cg_update(n - 1, 0.5, r + 1, q, z, r);
    direction(n - 1, 0.5, p, p + 1);
    printf("shifted %.10g %.10g %.10g\n", checksum(n, z), checksum(n, r), checksum(n, p));
    blend(3, n, grid, grid, shade, 0.5);
    blend(1, n, grid + n, grid, grid + 2 * n, 0.25);
    printf("grid %.10g\n", checksum(3 * n, grid));
    magnitude(n, re, im, mag);
    magnitude(n - 1, mag, im, mag + 1);
    double m = 0.0;
    for (int i = 0; i < n; i++)
        m += mag[i];
    printf("mag %.6e\n", m);
    free(p), free(q), free(z), free(r), free(grid), free(shade), free(re), free(im), free(mag);
    return 0;
}
