// direct: gemm_batched_accessor.cpp: contract's nest as one cblas_dgemm over the batch flattened to one (nr*nq) x np matrix times w into a scratch block, copied back over the rows, sum the last row; multiply as one cblas_dgemm with beta 1
// args: test=3 4 6 5 2 bench=64 96 160 320 12
#include <cstdio>
#include <cstdlib>
#include <cblas.h>
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
    const int rows = a.nr * a.nq, np = a.np;
    if (rows == 0 || np == 0)
        return;
    std::vector<double> scratch((std::size_t)rows * np);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, np, np, 1.0, a.d.data(), np,
                w.d.data(), np, 0.0, scratch.data(), np);
    for (std::size_t i = 0; i < scratch.size(); i++)
        a.d[i] = scratch[i];
    for (int p = 0; p < np; p++)
        sum[p] = scratch[(std::size_t)(rows - 1) * np + p];
}

/* c += a * b */
void multiply(const Matrix &a, const Matrix &b, Matrix &c)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, c.rows, c.cols, a.cols, 1.0,
                a.d.data(), a.cols, b.d.data(), b.cols, 1.0, c.d.data(), c.cols);
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
        for (std::size_t t = 0; t < a.d.size(); t++)
            total += a.d[t];
        scale = target / total;
        for (std::size_t t = 0; t < a.d.size(); t++)
            a.d[t] *= scale;
        double ztotal = 0.0;
        for (std::size_t t = 0; t < z.d.size(); t++)
            ztotal += z.d[t];
        zscale = (double)n * n / ztotal;
        for (std::size_t t = 0; t < z.d.size(); t++)
            z.d[t] *= zscale;
    }

    double sa = 0.0, wa = 0.0;
    for (std::size_t t = 0; t < a.d.size(); t++) {
        sa += a.d[t];
        wa += a.d[t] * (double)(t % 7 + 1);
    }
    double sz = 0.0;
    for (std::size_t t = 0; t < z.d.size(); t++)
        sz += z.d[t] * (double)(t % 5 + 1);
    double ss = 0.0;
    for (int p = 0; p < np; p++)
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
