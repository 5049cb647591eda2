// corpus: near-miss Reduction, sweeps that call a helper filling a local array at every point, where the helper or the sweep lets values leak from one iteration into another
// args: test=400 3 bench=2000000 20
// near-miss: exact_counted also counts its calls in a global; exact_inside fills q only for points inside the unit disc, so outside it q keeps the values of an earlier point; exact_first fills only the first k components, k changing from point to point, so q[3] mostly keeps an earlier point's value; exact_shifted reads a global shift that the sweep itself updates; sum_lagged reads q before the call refills it, so every term uses the previous point: no iteration is independent of the others
#include <stdio.h>
#include <stdlib.h>

#define NV 4

double coef[NV][4];
long evaluations;
double shift;

/* exact_counted: q_v(x) = c0 + x (c1 + x (c2 + x c3)), and one more evaluation counted */
void exact_counted(double x, double q[NV])
{
    for (int v = 0; v < NV; v++)   // expect: Map in exact_counted
        q[v] = coef[v][0] + x * (coef[v][1] + x * (coef[v][2] + x * coef[v][3]));
    evaluations++;
}

/* exact_inside: the same, for points inside the unit disc only */
void exact_inside(double x, double y, double q[NV])
{
    if (x * x + y * y < 1.0) {
        for (int v = 0; v < NV; v++)   // expect: Map in exact_inside
            q[v] = coef[v][0] + x * (coef[v][1] + y * (coef[v][2] + x * coef[v][3]));
    }
}

/* exact_first: the first k components only */
void exact_first(double x, double q[NV], int k)
{
    for (int v = 0; v < k; v++)   // expect: Map in exact_first
        q[v] = coef[v][0] + x * (coef[v][1] + x * (coef[v][2] + x * coef[v][3]));
}

/* exact_shifted: the components at x + shift */
void exact_shifted(double x, double q[NV])
{
    double s = x + shift;
    for (int v = 0; v < NV; v++)   // expect: Map in exact_shifted
        q[v] = coef[v][0] + s * (coef[v][1] + s * (coef[v][2] + s * coef[v][3]));
}

/* exact: the components at x (used correctly by main's checks) */
void exact(double x, double q[NV])
{
    for (int v = 0; v < NV; v++)   // expect: Map in exact
        q[v] = coef[v][0] + x * (coef[v][1] + x * (coef[v][2] + x * coef[v][3]));
}

double sum_counted(const double *u, int n)
{
    double q[NV], s = 0.0;
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        exact_counted((double)i / n, q);
        double d = u[i] - q[0];
        s += d * d;
    }
    return s;
}

double sum_inside(const double *u, int n)
{
    double q[NV] = {0.0, 0.0, 0.0, 0.0}, s = 0.0;
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        exact_inside(2.0 * i / n - 0.5, 0.5, q);
        double d = u[i] - q[1];
        s += d * d;
    }
    return s;
}

double sum_first(const double *u, int n)
{
    double q[NV] = {0.0, 0.0, 0.0, 0.0}, s = 0.0;
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        exact_first((double)i / n, q, 1 + i % NV);
        double d = u[i] - q[3];
        s += d * d;
    }
    return s;
}

double sum_shifted(const double *u, int n)
{
    double q[NV], s = 0.0;
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        exact_shifted((double)i / n, q);
        double d = u[i] - q[2];
        s += d * d;
        shift = 0.5 * d;
    }
    return s;
}

double sum_lagged(const double *u, int n)
{
    double q[NV], s = 0.0;
    exact(0.0, q);
    for (int i = 0; i < n; i++) {                 // expect-none: Reduction
        double d = u[i] - q[0];
        exact((double)(i + 1) / n, q);
        s += d * d;
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 1) n = 1;
    if (reps < 1) reps = 1;
    for (int v = 0; v < NV; v++)
        for (int c = 0; c < 4; c++)
            coef[v][c] = (double)((v * 3 + c * 5) % 7) / 7.0 - 0.2;
    double *u = malloc((size_t)n * sizeof *u);
    if (!u) return 1;
    for (int i = 0; i < n; i++)
        u[i] = (double)((i * 11) % 19) / 19.0;

    double t[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int r = 0; r < reps; r++) {
        shift = 0.0;
        t[0] += sum_counted(u, n);
        t[1] += sum_inside(u, n);
        t[2] += sum_first(u, n);
        t[3] += sum_shifted(u, n);
        t[4] += sum_lagged(u, n);
    }
    printf("n = %d reps = %d evaluations = %ld\n", n, reps, evaluations);
    for (int k = 0; k < 5; k++)
        printf("t[%d] = %.10g\n", k, t[k]);
    free(u);
    return 0;
}
