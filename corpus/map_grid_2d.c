// corpus: Map on fixed-size 2D array parameters in the textbook style (double out[N][N]): a blend of two grids relaxed towards a target, a float 1D attenuation with expf that reads the element it overwrites, and a magnitude grid written directly in main
// args: test=64 48 3 bench=512 512 2000
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 512

double U[N][N], V[N][N], T[N][N], G[N][N];

/* combine: out = s a + (1 - s) b over the leading n x m block */
void combine(int n, int m, double out[N][N], double a[N][N], double b[N][N], double s)
{
    for (int i = 0; i < n; i++)   // expect: Map in combine
        for (int j = 0; j < m; j++)
            out[i][j] = s * a[i][j] + (1.0 - s) * b[i][j];
}

/* attenuate: w = w exp(-k depth) + source, single precision */
void attenuate(int len, float k, float source, const float *depth, float *w)
{
    for (int i = 0; i < len; i++)   // expect: Map in attenuate
        w[i] = w[i] * expf(-k * depth[i]) + source;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    int m = argc > 2 ? atoi(argv[2]) : 256;
    int iters = argc > 3 ? atoi(argv[3]) : 100;
    if (n < 2 || n > N)
        n = n < 2 ? 2 : N;
    if (m < 2 || m > N)
        m = m < 2 ? 2 : N;
    if (iters < 1)
        iters = 1;

    int len = n * m;
    float *depth = malloc((size_t)len * sizeof *depth);
    float *w = malloc((size_t)len * sizeof *w);
    if (!depth || !w)
        return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            U[i][j] = (double)((i * 31 + j * 17) % 97) / 97.0;
            T[i][j] = cos(0.02 * (double)i) * sin(0.03 * (double)j) + 1.0;
        }
    for (int i = 0; i < len; i++) {
        depth[i] = 0.5f + (float)(i % 29) * 0.125f;
        w[i] = (float)(i % 5);
    }

    /* relax U towards T, ping-ponging between U and V */
    double (*u)[N] = U, (*v)[N] = V;
    for (int it = 0; it < iters; it++) {
        double s = 0.999 - 0.0005 * (double)(it % 4);
        combine(n, m, v, u, T, s);
        double (*tmp)[N] = u;
        u = v;
        v = tmp;
        attenuate(len, 0.01f, 0.001f, depth, w);
    }

    /* magnitude of (u, T) at each point */
    for (int i = 0; i < n; i++)   // expect: Map in main
        for (int j = 0; j < m; j++)
            G[i][j] = sqrt(u[i][j] * u[i][j] + T[i][j] * T[i][j]);

    double gs = 0.0, us = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)   // expect: Reduction in main
            gs += G[i][j];
    for (int i = 0; i < n; i++)   // expect: Reduction in main
        us += u[i][0] + u[i][m - 1];
    double ws = 0.0;
    for (int i = 0; i < len; i++)   // expect: Reduction in main
        ws += (double)w[i];
    printf("n %d m %d iters %d\n", n, m, iters);
    printf("u[0][0] %.10g u[n/2][m/2] %.10g G[n-1][m-1] %.10g\n", u[0][0], u[n / 2][m / 2], G[n - 1][m - 1]);
    printf("sum G %.10g edges u %.10g\n", gs, us);
    printf("w[0] %.10g w[len-1] %.10g sum w %.10g\n", (double)w[0], (double)w[len - 1], ws);
    free(depth);
    free(w);
    return 0;
}
