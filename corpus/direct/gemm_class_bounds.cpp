// direct: gemm_class_bounds.cpp: multiply as one cblas_dgemm, apply as one cblas_sgemv
// args: test=5 7 3 bench=1100 3000 60
#include <cblas.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <typename T> class Matrix {
public:
    int nr, nc;
    std::vector<T> d;
    Matrix(int r, int c) : nr(r), nc(c), d((std::size_t)r * c) {}
    T &operator()(int i, int j) { return d[i * nc + j]; }
    T operator()(int i, int j) const { return d[i * nc + j]; }
    int rows() const { return nr; }
    int cols() const { return nc; }
};

/* c = a * b, the sizes taken from the objects. */
void multiply(const Matrix<double> &a, const Matrix<double> &b, Matrix<double> &c)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, c.rows(), c.cols(), a.cols(), 1.0,
                a.d.data(), a.cols(), b.d.data(), b.cols(), 0.0, c.d.data(), c.cols());
}

/* y = m * x over the object's rows and columns. */
void apply(const Matrix<float> &m, const std::vector<float> &x, std::vector<float> &y)
{
    cblas_sgemv(CblasRowMajor, CblasNoTrans, m.nr, m.nc, 1.0f, m.d.data(), m.nc, x.data(), 1,
                0.0f, y.data(), 1);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 64;
    int m = argc > 2 ? std::atoi(argv[2]) : 128;
    int iters = argc > 3 ? std::atoi(argv[3]) : 4;
    if (n < 1 || m < 1 || iters < 1)
        return 1;
    const int p = n + n / 3 + 1;

    Matrix<double> a(n, p), b(p, n), c(n, n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < p; k++)
            a(i, k) = (double)((i * 2 + k * 5) % 9) / 9.0 - 0.5;
    for (int k = 0; k < p; k++)
        for (int j = 0; j < n; j++)
            b(k, j) = (double)((k + j * 4) % 11) / 11.0 - 0.5;
    multiply(a, b, c);

    /* a square matrix of positive entries: the iterations approach its leading vector */
    Matrix<float> mat(m, m);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            mat(i, j) = (float)((i * 3 + j * 7 + i * j) % 13 + 1) / 13.0f;
    std::vector<float> x(m, 1.0f), y(m);
    float norm = 0.0f;
    for (int it = 0; it < iters; it++) {
        apply(mat, x, y);
        float ss = 0.0f;
        for (int i = 0; i < m; i++)
            ss += y[i] * y[i];
        norm = std::sqrt(ss);
        const float inv = 1.0f / norm;
        for (int i = 0; i < m; i++)
            x[i] = y[i] * inv;
    }

    double tr = 0.0, rs = 0.0, cs = 0.0;
    for (int i = 0; i < n; i++) {
        tr += c(i, i);
        rs += c(n / 3, i);
        cs += c(i, n - 1);
    }
    double xs = 0.0;
    for (int i = 0; i < m; i++)
        xs += x[i] * (double)(i % 5 + 1);
    std::printf("n p m = %d %d %d iters = %d\n", n, p, m, iters);
    std::printf("trace = %.10g row = %.10g col = %.10g\n", tr, rs, cs);
    std::printf("c(0,0) = %.10g c(last) = %.10g\n", c(0, 0), c(n - 1, n - 1));
    std::printf("norm = %.6g x weighted = %.6g x[0] = %.6g\n", norm, xs, x[0]);
    return 0;
}
