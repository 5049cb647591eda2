// corpus: GEMM twice through C++ accessors defined in the class body: batched in-place products of rows by one matrix (doitgen) written element by element through a three-index at(r, q, p) of a tensor over std::vector<double> with int indices, the sums in a std::vector<double>; then a product C = A * B + C through two-index at(i, j) of a matrix class, dot products with a local sum; repeated with a renormalisation between calls
// args: test=3 4 6 5 2 bench=64 96 160 320 12
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Tensor {
    int nr, nq, np;
    std::vector<double> d;
    Tensor(int r, int q, int p) : nr(r), nq(q), np(p), d((std::size_t)r * q * p) {}
    double &at(int r, int q, int p) { return d[(r * nq + q) * np + p]; }
};

struct Matrix {
    int rows, cols;
    std::vector<double> d;
    Matrix(int m, int n) : rows(m), cols(n), d((std::size_t)m * n) {}
    double &at(int i, int j) { return d[i * cols + j]; }
    double at(int i, int j) const { return d[i * cols + j]; }
};

/* Each row a.at(r, q, 0 .. np-1) becomes its product with w (np x np), through sum. */
void contract(Tensor &a, const Matrix &w, std::vector<double> &sum)
{
    const int nr = a.nr, nq = a.nq, np = a.np;
    for (int r = 0; r < nr; r++)                    // expect: GEMM in contract
        for (int q = 0; q < nq; q++) {
            for (int p = 0; p < np; p++) {
                double t = 0.0;
                for (int s = 0; s < np; s++)
                    t += a.at(r, q, s) * w.at(s, p);
                sum[p] = t;
            }
            for (int p = 0; p < np; p++)
                a.at(r, q, p) = sum[p];
        }
}

/* c += a * b */
void multiply(const Matrix &a, const Matrix &b, Matrix &c)
{
    const int m = c.rows, n = c.cols, depth = a.cols;
    for (int i = 0; i < m; i++)                      // expect: GEMM in multiply
        for (int j = 0; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < depth; k++)
                t += a.at(i, k) * b.at(k, j);
            c.at(i, j) += t;
        }
}

int main(int argc, char **argv)
{
    int nr = argc > 1 ? std::atoi(argv[1]) : 8;
    int nq = argc > 2 ? std::atoi(argv[2]) : 8;
    int np = argc > 3 ? std::atoi(argv[3]) : 32;
    int n = argc > 4 ? std::atoi(argv[4]) : 64;
    int iters = argc > 5 ? std::atoi(argv[5]) : 2;
    if (nr < 1 || nq < 1 || np < 1 || n < 1 || iters < 1)
        return 1;

    Tensor a(nr, nq, np);
    Matrix w(np, np), x(n, n), y(n, n), z(n, n);
    std::vector<double> sum(np);
    /* positive entries; each row of w sums to about one */
    for (int r = 0; r < nr; r++)
        for (int q = 0; q < nq; q++)
            for (int p = 0; p < np; p++)
                a.at(r, q, p) = (double)((r * 5 + q * 3 + p * 7) % 17 + 4) / 12.0;
    for (int s = 0; s < np; s++)
        for (int p = 0; p < np; p++)
            w.at(s, p) = (double)((s * 7 + p * 2 + s * p) % 13 + 1) / (7.0 * np);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            x.at(i, j) = (double)((i * 3 + j * 5) % 11 + 1) / (6.0 * n);
            y.at(i, j) = (double)((i * 2 + j * 7 + i * j) % 9 + 1) / 5.0;
            z.at(i, j) = (double)((i + j) % 4) / 8.0;
        }

    const double target = (double)nr * nq * np;
    double scale = 1.0, zscale = 1.0;
    for (int it = 0; it < iters; it++) {
        contract(a, w, sum);
        multiply(x, y, z);
        /* renormalise: the mean element of a and of z back to one */
        double total = 0.0;
        for (std::size_t t = 0; t < a.d.size(); t++)   // expect: Reduction in main
            total += a.d[t];
        scale = target / total;
        for (std::size_t t = 0; t < a.d.size(); t++)   // expect: Map in main
            a.d[t] *= scale;
        double ztotal = 0.0;
        for (std::size_t t = 0; t < z.d.size(); t++)   // expect: Reduction in main
            ztotal += z.d[t];
        zscale = (double)n * n / ztotal;
        for (std::size_t t = 0; t < z.d.size(); t++)   // expect: Map in main
            z.d[t] *= zscale;
    }

    double sa = 0.0, wa = 0.0;
    for (std::size_t t = 0; t < a.d.size(); t++) {     // expect: Reduction in main
        sa += a.d[t];
        wa += a.d[t] * (double)(t % 7 + 1);
    }
    double sz = 0.0;
    for (std::size_t t = 0; t < z.d.size(); t++)       // expect: Reduction in main
        sz += z.d[t] * (double)(t % 5 + 1);
    double ss = 0.0;
    for (int p = 0; p < np; p++)                       // expect: Reduction in main
        ss += sum[p] * (double)(p % 3 + 1);
    std::printf("nr nq np = %d %d %d n = %d iters = %d\n", nr, nq, np, n, iters);
    std::printf("last scales = %.10g %.10g\n", scale, zscale);
    std::printf("a sum = %.10g weighted = %.10g\n", sa, wa);
    std::printf("a(0,0,0) = %.10g a(last) = %.10g\n", a.at(0, 0, 0), a.at(nr - 1, nq - 1, np - 1));
    std::printf("z weighted = %.10g z(0,0) = %.10g z(last) = %.10g\n", sz, z.at(0, 0),
                z.at(n - 1, n - 1));
    std::printf("sum weighted = %.10g sum[0] = %.10g\n", ss, sum[0]);
    return 0;
}
