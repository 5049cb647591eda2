// corpus: Stencil, 3D 27-point box average (a volume blur) written plane by plane, the sum in one chain, two fields swapped each step, double
// args: test=14 4 bench=128 200
#include <stdio.h>
#include <stdlib.h>

/* out = the mean of the 3x3x3 block around each interior point; the 27 reads are added
   in one chain, the plane behind (i - 1) first, then the point's own plane, then the one
   ahead, each plane row by row. */
void box_blur(int n, const double in[n][n][n], double out[n][n][n])
{
    for (int i = 1; i < n - 1; i++) {          // expect: Stencil in box_blur
        for (int j = 1; j < n - 1; j++) {
            for (int k = 1; k < n - 1; k++) {
                double s = in[i - 1][j - 1][k - 1] + in[i - 1][j - 1][k] + in[i - 1][j - 1][k + 1]
                         + in[i - 1][j][k - 1] + in[i - 1][j][k] + in[i - 1][j][k + 1]
                         + in[i - 1][j + 1][k - 1] + in[i - 1][j + 1][k] + in[i - 1][j + 1][k + 1]
                         + in[i][j - 1][k - 1] + in[i][j - 1][k] + in[i][j - 1][k + 1]
                         + in[i][j][k - 1] + in[i][j][k] + in[i][j][k + 1]
                         + in[i][j + 1][k - 1] + in[i][j + 1][k] + in[i][j + 1][k + 1]
                         + in[i + 1][j - 1][k - 1] + in[i + 1][j - 1][k] + in[i + 1][j - 1][k + 1]
                         + in[i + 1][j][k - 1] + in[i + 1][j][k] + in[i + 1][j][k + 1]
                         + in[i + 1][j + 1][k - 1] + in[i + 1][j + 1][k] + in[i + 1][j + 1][k + 1];
                out[i][j][k] = s * (1.0 / 27.0);
            }
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 32;
    int steps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 3)
        n = 3;
    if (steps < 1)
        steps = 1;
    size_t cells = (size_t)n * n * n;
    double *a = malloc(cells * sizeof *a);
    double *b = malloc(cells * sizeof *b);
    if (!a || !b)
        return 1;
    for (size_t c = 0; c < cells; c++) {
        a[c] = (double)((c * 7919u) % 1000u) * 1e-3 + (c % 5 == 0 ? 1e6 : 0.0);
        b[c] = a[c];
    }
    for (int t = 0; t < steps; t++) {
        box_blur(n, (const double (*)[n][n])a, (double (*)[n][n])b);
        box_blur(n, (const double (*)[n][n])b, (double (*)[n][n])a);
    }
    double sum = 0.0;
    for (size_t c = 0; c < cells; c++)          // expect: Reduction in main
        sum += a[c];
    printf("n = %d steps = %d\n", n, steps);
    printf("sum = %.10g\n", sum); /* a reduction: reassociated when replaced */
    printf("a[centre] = %.17g\n", a[(size_t)(n / 2) * n * n + (size_t)(n / 2) * n + n / 2]);
    printf("a[1][2][3] = %.17g\n", a[(size_t)1 * n * n + 2 * n + 3]);
    return 0;
}
