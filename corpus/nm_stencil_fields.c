// corpus: near-miss Stencil, loops that read several fields of one record per point (5-component state vectors, a struct of coordinates, 5x5 blocks counted down), next to true stencils over records and counting down
// args: test=40 3 bench=3000 80000
// near-miss: pressure, speed and block_apply read only the fields of the record at the point they write (u[k][i][0..4], p[i].vx and p[i].vy, a[j][i][0..4][m]): no neighbour, so no stencil
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NMAX 3000
#define NB 24

struct particle {
    double x, y, vx, vy;
};

double state[2][NMAX][5];
double press[2][NMAX];
double blocks[NB][NB][5][5];
double vecs[NB][NB][5];
double res[NB][NB][5];

/* Pressure of each cell from its conserved variables (rho, rho u, rho v, rho w, E). */
void pressure(int n)
{
    for (int k = 0; k < 2; k++) {                 // expect-none: Stencil; expect: Map in pressure
        for (int i = 0; i < n; i++)
            press[k][i] = 0.4 * (state[k][i][4]
                                 - 0.5 * (state[k][i][1] * state[k][i][1]
                                          + state[k][i][2] * state[k][i][2]
                                          + state[k][i][3] * state[k][i][3])
                                       / state[k][i][0]);
    }
}

/* Speed of each particle. */
void speed(int n, const struct particle *p, double *s)
{
    for (int i = 0; i < n; i++)                   // expect-none: Stencil; expect: Map in speed
        s[i] = sqrt(p[i].vx * p[i].vx + p[i].vy * p[i].vy);
}

/* res[j][i] = w * B[j][i]^T v[j][i] for the blocks (jlo..jhi-1, ilo..ihi-1), swept
   backwards. */
void block_apply(int jlo, int jhi, int ilo, int ihi, double w)
{
    for (int j = jhi - 1; j >= jlo; j--) {        // expect-none: Stencil; expect: Map in block_apply
        for (int i = ihi - 1; i >= ilo; i--) {
            for (int m = 0; m < 5; m++)
                res[j][i][m] = w * (blocks[j][i][0][m] * vecs[j][i][0]
                                    + blocks[j][i][1][m] * vecs[j][i][1]
                                    + blocks[j][i][2][m] * vecs[j][i][2]
                                    + blocks[j][i][3][m] * vecs[j][i][3]
                                    + blocks[j][i][4][m] * vecs[j][i][4]);
        }
    }
}

/* Second difference of the x coordinates along the chain of particles: neighbours. */
void curvature(int n, const struct particle *p, double *c)
{
    for (int i = 1; i < n - 1; i++)               // expect: Stencil in curvature
        c[i] = p[i - 1].x - 2.0 * p[i].x + p[i + 1].x;
}

/* A three-point smoothing swept from the end. */
void smooth_down(int n, const double *a, double *b)
{
    for (int i = n - 2; i >= 1; i--)              // expect: Stencil in smooth_down
        b[i] = 0.25 * (a[i - 1] + 2.0 * a[i] + a[i + 1]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 3) n = 3;
    if (n > NMAX) n = NMAX;
    if (reps < 1) reps = 1;
    int nb = n < NB ? n : NB;

    struct particle *p = malloc((size_t)n * sizeof *p);
    double *s = malloc((size_t)n * sizeof *s);
    double *c = calloc((size_t)n, sizeof *c);
    double *a = malloc((size_t)n * sizeof *a);
    double *b = calloc((size_t)n, sizeof *b);
    if (!p || !s || !c || !a || !b) return 1;
    for (int i = 0; i < n; i++) {
        p[i].x = (double)((i * 7) % 13) / 13.0;
        p[i].y = (double)((i * 5) % 11) / 11.0;
        p[i].vx = (double)((i * 3) % 7) / 7.0 - 0.5;
        p[i].vy = (double)((i * 2) % 5) / 5.0 - 0.5;
        a[i] = (double)((i * 11) % 17) / 17.0;
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < n; i++)
            for (int m = 0; m < 5; m++)
                state[k][i][m] = 1.0 + (double)((k + 3 * i + 7 * m) % 19) / 19.0;
    for (int j = 0; j < nb; j++)
        for (int i = 0; i < nb; i++)
            for (int m = 0; m < 5; m++) {
                vecs[j][i][m] = (double)((j + 2 * i + m) % 9) / 9.0;
                for (int l = 0; l < 5; l++)
                    blocks[j][i][l][m] = (double)((j * 3 + i + l * 5 + m) % 23) / 23.0 - 0.3;
            }

    for (int r = 0; r < reps; r++) {
        pressure(n);
        speed(n, p, s);
        block_apply(r % 2, nb, 0, nb - r % 2, 0.5 + 0.1 * r);
        curvature(n, p, c);
        smooth_down(n, a, b);
        for (int i = 0; i < n; i++)   // expect: Map in main
            a[i] = b[i] + 0.01 * c[i];
    }

    double ps = 0.0, ss = 0.0, cs = 0.0, as = 0.0, rs = 0.0;
    for (int i = 0; i < n; i++)                   // expect: Reduction in main
        ps += press[0][i] + press[1][i];
    for (int i = 0; i < n; i++)                   // expect: Reduction in main
        ss += s[i];
    for (int i = 0; i < n; i++)                   // expect: Reduction in main
        cs += c[i];
    for (int i = 0; i < n; i++)                   // expect: Reduction in main
        as += a[i];
    for (int j = 0; j < nb; j++)
        for (int i = 0; i < nb; i++)
            for (int m = 0; m < 5; m++)           // expect: Reduction in main
                rs += res[j][i][m];
    printf("n = %d reps = %d\n", n, reps);
    printf("pressure = %.10g\n", ps);
    printf("speed = %.10g\n", ss);
    printf("curvature = %.10g\n", cs);
    printf("smoothed = %.10g\n", as);
    printf("blocks = %.10g\n", rs);
    free(p);
    free(s);
    free(c);
    free(a);
    free(b);
    return 0;
}
