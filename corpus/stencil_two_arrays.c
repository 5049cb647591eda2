// corpus: Stencil, two arrays written from one neighbourhood: the two shifted factors of a pentadiagonal system built from a base one and a wave speed at i-1 and i+1 (fixed-size grids and grids allocated at run time), and the two magnetic fields of a 2D electromagnetic update from the differences of the electric one
// args: test=13 3 bench=1001 120
#include <stdio.h>
#include <stdlib.h>

#define W 96
#define BANDS 5

static double base[W][W][BANDS], plus[W][W][BANDS], minus[W][W][BANDS];
static double speed[W][W];

/* The factors (u + c) and (u - c): the sub- and super-diagonals shifted by the speed of
   the neighbouring points along i, the other bands copied. */
void shifted_factors(int n, double dt)
{
    for (int j = 1; j < n - 1; j++)                            // expect: Stencil in shifted_factors
        for (int i = 1; i < n - 1; i++) {
            double below = dt * speed[j][i - 1], above = dt * speed[j][i + 1];
            plus[j][i][0] = base[j][i][0];
            plus[j][i][1] = base[j][i][1] - below;
            plus[j][i][2] = base[j][i][2];
            plus[j][i][3] = base[j][i][3] + above;
            plus[j][i][4] = base[j][i][4];
            minus[j][i][0] = base[j][i][0];
            minus[j][i][1] = base[j][i][1] + below;
            minus[j][i][2] = base[j][i][2];
            minus[j][i][3] = base[j][i][3] - above;
            minus[j][i][4] = base[j][i][4];
        }
}

/* The same three bands on flat grids allocated at run time and kept in global pointers. */
double *band_base, *band_plus, *band_minus, *wave;

void shifted_factors_flat(int n, double dt)
{
    for (int j = 0; j < n; j++)                                // expect: Stencil in shifted_factors_flat
        for (int i = 1; i < n - 1; i++) {
            long p = ((long)j * n + i) * BANDS;
            double below = wave[j * n + i - 1], above = wave[j * n + i + 1];
            band_plus[p + 1] = band_base[p + 1] - dt * below;
            band_plus[p + 2] = band_base[p + 2];
            band_plus[p + 3] = band_base[p + 3] + dt * above;
            band_minus[p + 1] = band_base[p + 1] + dt * below;
            band_minus[p + 2] = band_base[p + 2];
            band_minus[p + 3] = band_base[p + 3] - dt * above;
        }
}

/* Both magnetic fields of a transverse-magnetic 2D update, from the electric field at
   the point and at its neighbours j+1 and i+1 (a Yee grid's half step). */
void magnetic_step(int nx, int ny, double ch, const double *ez, double *hx, double *hy)
{
    for (int j = 0; j < ny - 1; j++)                           // expect: Stencil in magnetic_step
        for (int i = 0; i < nx - 1; i++) {
            double here = ez[j * nx + i];
            hx[j * nx + i] = hx[j * nx + i] - ch * (ez[(j + 1) * nx + i] - here);
            hy[j * nx + i] = hy[j * nx + i] + ch * (ez[j * nx + i + 1] - here);
        }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 4) n = 4;
    if (reps < 1) reps = 1;
    int small = n < W ? n : W;
    size_t points = (size_t)n * n;
    band_base = malloc(sizeof(double) * points * BANDS);
    band_plus = calloc(points * BANDS, sizeof(double));
    band_minus = calloc(points * BANDS, sizeof(double));
    wave = malloc(sizeof(double) * points);
    double *ez = malloc(sizeof(double) * points);
    double *hx = calloc(points, sizeof(double));
    double *hy = calloc(points, sizeof(double));
    if (!band_base || !band_plus || !band_minus || !wave || !ez || !hx || !hy) return 1;
    for (int j = 0; j < W; j++)
        for (int i = 0; i < W; i++) {
            speed[j][i] = (double)((j * 13 + i * 7) % 19) / 19.0;
            for (int b = 0; b < BANDS; b++)
                base[j][i][b] = (double)((j + 3 * i + 5 * b) % 11) - 5.0;
        }
    for (size_t t = 0; t < points; t++) {
        wave[t] = (double)((t * 17) % 23) / 23.0;
        ez[t] = (double)((t * 29 + 1) % 31) / 31.0 - 0.5;
        for (int b = 0; b < BANDS; b++)
            band_base[t * BANDS + b] = (double)((t + b * 3) % 13) / 13.0;
    }

    for (int r = 0; r < reps; r++) {
        shifted_factors(small, 0.125 + r);
        shifted_factors_flat(n, 0.25 + r);
        magnetic_step(n, n, 0.5, ez, hx, hy);
    }

    double sp = 0.0, sm = 0.0, sb = 0.0, sh = 0.0;
    for (int j = 0; j < W; j++)
        for (int i = 0; i < W; i++)
            for (int b = 0; b < BANDS; b++) {                  // expect: Reduction in main
                sp += plus[j][i][b] * (double)(b + 1);
                sm += minus[j][i][b] * (double)(i % 3 + 1);
            }
    for (size_t t = 0; t < points * BANDS; t++)                // expect: Reduction in main
        sb += (band_plus[t] - 2.0 * band_minus[t]) * (double)(t % 7 + 1);
    for (size_t t = 0; t < points; t++)                        // expect: Reduction in main
        sh += hx[t] * (double)(t % 5 + 1) - hy[t];
    printf("n = %d reps = %d\n", n, reps);
    printf("plus = %.10g minus = %.10g\n", sp, sm);
    printf("bands = %.10g\n", sb);
    printf("fields = %.10g\n", sh);
    free(band_base); free(band_plus); free(band_minus); free(wave);
    free(ez); free(hx); free(hy);
    return 0;
}
