// corpus: Map, restarted conjugate gradient on a shifted 1D Laplacian with flat double* parameters: x += alpha p and r -= alpha q in one loop (two arrays written), p = r + beta p, r = b - q, x = s z; the tridiagonal product is a Stencil, the dot products Reductions
// args: test=2000 3 bench=1000000 400
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* apply_tridiag: q = A p for A = tridiag(-1, diag, -1) of order n */
void apply_tridiag(int n, double diag, const double *p, double *q)
{
    q[0] = diag * p[0] - p[1];
    for (int j = 1; j < n - 1; j++)   // expect: Stencil in apply_tridiag
        q[j] = diag * p[j] - p[j - 1] - p[j + 1];
    q[n - 1] = diag * p[n - 1] - p[n - 2];
}

/* dot: sum of a[j] * b[j] */
double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int j = 0; j < n; j++)   // expect: Reduction in dot
        s += a[j] * b[j];
    return s;
}

/* residual: r = b - q (q = A z computed before) */
void residual(int n, const double *b, const double *q, double *r)
{
    for (int j = 0; j < n; j++)   // expect: Map in residual
        r[j] = b[j] - q[j];
}

/* cg_update: z += alpha p, r -= alpha q, both in one sweep */
void cg_update(int n, double alpha, const double *p, const double *q, double *z, double *r)
{
    for (int j = 0; j < n; j++) {   // expect: Map in cg_update
        z[j] = z[j] + alpha * p[j];
        r[j] = r[j] - alpha * q[j];
    }
}

/* cg_direction: p = r + beta p */
void cg_direction(int n, double beta, const double *r, double *p)
{
    for (int j = 0; j < n; j++)   // expect: Map in cg_direction
        p[j] = r[j] + beta * p[j];
}

/* scale: x = s z */
void scale(int n, double s, const double *z, double *x)
{
    for (int j = 0; j < n; j++)   // expect: Map in scale
        x[j] = s * z[j];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    int iters = argc > 2 ? atoi(argv[2]) : 40;
    if (n < 4)
        n = 4;
    if (iters < 1)
        iters = 1;

    const int restart = 16;       /* recompute the true residual every 16 steps */
    const double diag = 2.001;    /* 2 + shift: symmetric positive definite, slow to converge */
    double *b = malloc((size_t)n * sizeof *b), *z = malloc((size_t)n * sizeof *z);
    double *r = malloc((size_t)n * sizeof *r), *p = malloc((size_t)n * sizeof *p);
    double *q = malloc((size_t)n * sizeof *q), *x = malloc((size_t)n * sizeof *x);
    if (!b || !z || !r || !p || !q || !x)
        return 1;
    for (int j = 0; j < n; j++) {
        b[j] = 1.0 + 0.5 * sin(0.001 * (double)j) + (double)(j % 7) * 0.125;
        z[j] = 0.0;
    }

    double rr = 0.0, rr0 = 0.0;
    int steps = 0;
    for (int it = 0; it < iters; it++) {
        if (it % restart == 0) {
            apply_tridiag(n, diag, z, q);
            residual(n, b, q, r);
            for (int j = 0; j < n; j++)
                p[j] = r[j];
            rr = dot(n, r, r);
            if (it == 0)
                rr0 = rr;
        }
        apply_tridiag(n, diag, p, q);
        double pq = dot(n, p, q);
        if (pq == 0.0)
            break;
        double alpha = rr / pq;
        cg_update(n, alpha, p, q, z, r);
        double rr_new = dot(n, r, r);
        cg_direction(n, rr_new / rr, r, p);
        rr = rr_new;
        steps++;
    }
    scale(n, 0.25, z, x);

    double sx = 0.0, sa = 0.0;
    for (int j = 0; j < n; j++) {   // expect: Reduction in main
        sx += x[j];
        sa += fabs(r[j]);
    }
    printf("n %d steps %d\n", n, steps);
    printf("relative residual %.10g\n", sqrt(rr / rr0));
    printf("x[0] %.10g x[n/2] %.10g x[n-1] %.10g\n", x[0], x[n / 2], x[n - 1]);
    printf("sum x %.10g sum |r| %.10g\n", sx, sa);
    free(b);
    free(z);
    free(r);
    free(p);
    free(q);
    free(x);
    return 0;
}
