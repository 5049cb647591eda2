// corpus: C++ ELLPACK struct (n, width, val, col; row-major, member function apply) for a 2D 5-point Laplacian, conjugate gradients
// args: test=24 30 bench=700 400
#include <cmath>
#include <cstdio>
#include <cstdlib>

struct EllMatrix {
    int n, width;
    double *val;
    int *col;
    void apply(const double *x, double *y) const;
};

/* EllMatrix::apply: y = A x, row i in val[i*width .. i*width + width - 1] */
void EllMatrix::apply(const double *x, double *y) const
{
    for (int i = 0; i < n; i++) {   // expect: SpMV_ELL in EllMatrix::apply
        double s = 0.0;
        for (int j = 0; j < width; j++)
            s += val[i * width + j] * x[col[i * width + j]];
        y[i] = s;
    }
}

/* dot: sum of a[i] * b[i] */
double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)   // expect: Reduction in dot
        s += a[i] * b[i];
    return s;
}

/* the m x m grid, Dirichlet boundary: slots for missing neighbours hold 0 at the row itself */
static EllMatrix laplace2d(int m)
{
    EllMatrix A;
    A.n = m * m;
    A.width = 5;
    A.val = new double[(size_t)A.n * 5];
    A.col = new int[(size_t)A.n * 5];
    for (int iy = 0; iy < m; iy++)
        for (int ix = 0; ix < m; ix++) {
            int r = iy * m + ix, p = r * 5;
            int nb[4] = {iy > 0 ? r - m : -1, ix > 0 ? r - 1 : -1, ix < m - 1 ? r + 1 : -1,
                         iy < m - 1 ? r + m : -1};
            A.col[p] = r;
            A.val[p] = 4.0;
            for (int q = 0; q < 4; q++) {   // expect: Map in laplace2d
                A.col[p + 1 + q] = nb[q] >= 0 ? nb[q] : r;
                A.val[p + 1 + q] = nb[q] >= 0 ? -1.0 : 0.0;
            }
        }
    return A;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? std::atoi(argv[1]) : 100;
    int maxit = argc > 2 ? std::atoi(argv[2]) : 100;
    if (m < 2)
        m = 2;
    if (maxit < 1)
        maxit = 1;

    EllMatrix A = laplace2d(m);
    int n = A.n;
    double *b = new double[n], *x = new double[n], *r = new double[n];
    double *p = new double[n], *ap = new double[n];
    unsigned s = 4242u;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        b[i] = (double)((s >> 16) % 1024u) / 1024.0;
        x[i] = 0.0;
        r[i] = b[i];
        p[i] = b[i];
    }

    double rr = dot(n, r, r);
    const double rr0 = rr;
    int it = 0;
    for (; it < maxit && rr > 1e-20 * rr0; it++) {
        A.apply(p, ap);
        double alpha = rr / dot(n, p, ap);
        for (int i = 0; i < n; i++) {   // expect: Map in main
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        double rr_new = dot(n, r, r);
        double beta = rr_new / rr;
        rr = rr_new;
        for (int i = 0; i < n; i++)   // expect: Map in main
            p[i] = r[i] + beta * p[i];
    }

    double cs = 0.0, wsum = 0.0;
    for (int i = 0; i < n; i++) {   // expect: Reduction in main
        cs += x[i];
        wsum += x[i] * (double)(i % 11);
    }
    std::printf("n %d iterations %d\n", n, it);
    std::printf("relative residual %.6e\n", std::sqrt(rr / rr0));
    std::printf("sum x %.10g weighted %.10g\n", cs, wsum);
    delete[] A.val;
    delete[] A.col;
    delete[] b; delete[] x; delete[] r; delete[] p; delete[] ap;
    return 0;
}
